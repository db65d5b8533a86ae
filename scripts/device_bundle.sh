#!/usr/bin/env bash
# Packs what a lent GPU machine needs to run vksim's GPU tests and bench
# without Vulkan development packages (bench/README.md, "Running on a lent
# GPU"): the stripped `vksim` and `vksim_gpu_tests` of build/, the shared
# libraries they load beyond glibc and the C++ runtime, Debian's Vulkan
# loader and the Khronos validation layer, as one archive,
# .device/vksim-bundle.tar.xz, which git ignores (.git/info/exclude) and the
# device tool carries (`carry: [".device"]`); bench/device_run.sh unpacks
# and runs it there.
# Usage: scripts/device_bundle.sh   (after scripts/build.sh)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
for program in build/vksim build/tests/vksim_gpu_tests; do
    [[ -x $program ]] || { echo "device_bundle.sh: $program is not built (run scripts/build.sh)" >&2; exit 1; }
done
grep -qx '/.device/' .git/info/exclude 2>/dev/null || echo '/.device/' >>.git/info/exclude

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/bin" "$stage/lib" "$stage/layers"
for program in build/vksim build/tests/vksim_gpu_tests; do
    strip -o "$stage/bin/$(basename "$program")" "$program"
done
# Every library either program loads, except the C runtime, the C++ runtime
# and the dynamic loader, which the GPU machine has (newer).
ldd build/vksim build/tests/vksim_gpu_tests | awk '$2 == "=>" && $3 ~ /^\// {print $3}' | sort -u |
    grep -Ev '/(libc|libm|libdl|libpthread|librt|libstdc\+\+|libgcc_s|ld-linux[^/]*)\.so' |
    while read -r library; do cp -L "$library" "$stage/lib/"; done
cp -L /usr/lib/x86_64-linux-gnu/libvulkan.so.1 "$stage/lib/"
cp -L /usr/lib/x86_64-linux-gnu/libVkLayer_khronos_validation.so "$stage/layers/"
# The layer's manifest names its library by file name: found beside it.
sed 's|"library_path": *"[^"]*"|"library_path": "./libVkLayer_khronos_validation.so"|' \
    /usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json >"$stage/layers/VkLayer_khronos_validation.json"
git rev-parse --short HEAD >"$stage/commit"
# The programs find scenes and test meshes under the source folder they
# were built in (VKSIM_SOURCE_DIR); device_run.sh links it to the checkout.
pwd >"$stage/source_dir"
mkdir -p .device
tar -C "$stage" -cJf .device/vksim-bundle.tar.xz .
echo "device_bundle.sh: .device/vksim-bundle.tar.xz ($(du -h .device/vksim-bundle.tar.xz | cut -f1), commit $(cat "$stage/commit"))"
