#version 460
// The benchmark's calibration kernel. It does nothing, so what a dispatch of
// it costs (recording, launch, the barrier after it, the timestamps around
// it) is the fixed cost every pass pays before doing any work.
layout(local_size_x = 64) in;

void main() {}
