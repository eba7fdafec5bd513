// stb_image and stb_image_resize compiled into the image fuzz target from Debian's headers (the
// same version as the libstb.so a normal build links, with its default options: every decoder),
// so that the sanitizers check them and libFuzzer sees their branches. Linked into fuzz_image
// itself, these definitions take the place of libstb.so's for the engine's calls.
#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_RESIZE_IMPLEMENTATION
#include <stb_image.h>
#include <stb_image_resize.h>
