# SPDX-FileCopyrightText: 2026 The netdp authors
# SPDX-License-Identifier: Apache-2.0
"""The compiled module of `import netdp` (_netdp) built by CMake, for pip and python3 -m build.

pyproject.toml holds the package's metadata; this file only tells setuptools how to build the
extension: configure the project with CMake (the library and the Python module, nothing else),
build the netdp_python target, and copy the module where setuptools packs it. The version is
CMakeLists.txt's, the one `netdp --version` prints.
"""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent


def version():
    text = (ROOT / "CMakeLists.txt").read_text()
    found = re.search(r"project\(netdp VERSION ([0-9.]+)", text)
    if not found:
        sys.exit("setup.py: no 'project(netdp VERSION x.y.z' in CMakeLists.txt")
    return found.group(1)


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        target = Path(self.get_ext_fullpath(ext.name)).resolve()
        build = Path(os.environ.get("NETDP_PIP_BUILD_DIR", Path(self.build_temp).resolve() / "cmake"))
        configure = ["cmake", "-S", str(ROOT), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release",
                     "-DNETDP_BUILD_TESTS=OFF", "-DNETDP_BUILD_BENCH=OFF", "-DNETDP_BUILD_APPS=OFF",
                     "-DNETDP_BUILD_PYTHON=ON", f"-DPython3_EXECUTABLE={sys.executable}"]
        configure += os.environ.get("CMAKE_ARGS", "").split()  # as scikit-build: extra -D options
        subprocess.run(configure, check=True)
        jobs = str(os.cpu_count() or 1)
        subprocess.run(["cmake", "--build", str(build), "--target", "netdp_python", "-j", jobs], check=True)
        built = sorted((build / "python" / "netdp").glob("_netdp*.so"))
        if not built:
            sys.exit(f"setup.py: CMake built no _netdp module in {build / 'python' / 'netdp'}")
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built[-1], target)


setup(version=version(), ext_modules=[Extension("netdp._netdp", sources=[])], cmdclass={"build_ext": CMakeBuild})
