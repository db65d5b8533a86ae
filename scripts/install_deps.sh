#!/usr/bin/env bash
# Installs the Debian packages vksim needs to build, test and run, and only
# those that are missing: with everything present it needs neither root nor
# the network, so build.sh can call it every time.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config glslc spirv-headers
  libvulkan-dev libvulkan-volk-dev libglfw3-dev libglm-dev nlohmann-json3-dev
  libcli11-dev libfmt-dev libgtest-dev libgmock-dev
  mesa-vulkan-drivers vulkan-validationlayers vulkan-tools  # lavapipe, validation, vulkaninfo
  xvfb xauth                                                  # windowed tests without a display
  libstb-dev libimgui-dev libeigen3-dev libtinyobjloader-dev imagemagick
  tetgen                                                      # tetrahedralises OBJ surfaces (run as a program)
  pybind11-dev python3-dev python3-numpy python3-pytest      # the Python module, for /usr/bin/python3 (python/)
  python3-scipy python3-matplotlib python3-dask python3-distributed  # its examples (examples/python/)
  clang libclang-rt-14-dev  # fuzz targets (scripts/fuzz.sh): -fsanitize=fuzzer's runtime is in libclang-rt,
                            # only recommended by clang (libfuzzer-14-dev is the standalone libFuzzer.a: unused)
)

if ! command -v dpkg-query >/dev/null || ! command -v apt-get >/dev/null; then
  echo "install_deps.sh: not a Debian-based system; install the equivalents of these packages yourself:" >&2
  echo "  ${packages[*]}" >&2
  exit 0
fi

is_installed() {
  [[ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" == "install ok installed" ]]
}

missing=()
for package in "${packages[@]}"; do
  is_installed "$package" || missing+=("$package")
done

if ((${#missing[@]} == 0)); then
  exit 0
fi

if ((EUID == 0)); then
  as_root=()
elif command -v sudo >/dev/null; then
  as_root=(sudo)
else
  echo "install_deps.sh: these packages are missing: ${missing[*]}" >&2
  echo "install_deps.sh: installing them needs root, and sudo is not available; run as root:" >&2
  echo "  apt-get update && apt-get install ${missing[*]}" >&2
  exit 1
fi

echo "install_deps.sh: installing ${missing[*]}"
# `env` rather than a plain assignment: sudo resets the environment.
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
