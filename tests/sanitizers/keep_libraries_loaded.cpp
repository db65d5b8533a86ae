// Linked into the GPU tests of the sanitizer build only (VKSIM_ASAN). The
// Vulkan loader unloads the driver (libvulkan_lvp.so, and libLLVM with it)
// and the validation layer when an instance is destroyed. LeakSanitizer
// checks at exit, after that: the memory those libraries keep through their
// own globals, which are gone, then looks leaked (1.25 GB in 15 million
// blocks over the GPU tests), and their stack frames cannot be named, so no
// suppression can match them. This dlclose, which the loader's calls bind to
// before libc's, keeps every library mapped to the end of the process; the
// loader reuses a library it still has on the next instance.
extern "C" int dlclose(void*) { return 0; }
