// The one translation unit that compiles stb_image_write (libstb-dev ships it
// as a header-only library).
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image_write.h>
