#!/usr/bin/env bash
# Installs every Debian 12 package onnxgate needs to build, test and run. Idempotent: packages
# already present are left alone, so a second run does nothing but check.
set -euo pipefail

packages=(
  cmake g++ make pkg-config
  libprotobuf-dev protobuf-compiler libonnx-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  nlohmann-json3-dev libcli11-dev libhdf5-dev hdf5-tools libeigen3-dev libdnnl-dev
  opencl-headers ocl-icd-opencl-dev pocl-opencl-icd
  libspdlog-dev libfmt-dev libssl-dev libxml2-utils locales
)

if [[ $(id -u) -ne 0 ]]; then
  echo "install-deps.sh: run as root (it calls apt-get)" >&2
  exit 2
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if ((${#missing[@]})); then
  echo "install-deps.sh: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "install-deps.sh: all ${#packages[@]} packages present"
fi

# StringNormalizer cases need the en_US.UTF-8 locale.
if ! locale -a 2>/dev/null | grep -qi '^en_US\.utf-\?8$'; then
  sed -i 's/^# *\(en_US.UTF-8 UTF-8\)/\1/' /etc/locale.gen
  locale-gen >/dev/null
fi
