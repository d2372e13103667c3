"""`pip install .`: the package python/bnsl/ and its extension bnsl._bnsl, built by CMake.

setuptools' build_ext runs CMake on this repository with the Python package on and the tests,
benchmarks and man pages off, builds the one target _bnsl for the interpreter that runs pip, and
copies the module where the wheel wants it. The version is CMakeLists.txt's project() version.

Environment: CMAKE_ARGS (more configure arguments, e.g. -DBNSL_WITH_MPI=OFF or
-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); BNSL_CMAKE_BUILD_DIR (an existing build folder configured
with -DBNSL_PYTHON=ON for this interpreter: only its _bnsl target is built, as CI does).
"""
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent


def cmake_version() -> str:
    text = (ROOT / "CMakeLists.txt").read_text()
    return re.search(r"project\(bnsl\s+VERSION\s+([0-9.]+)", text).group(1)


def pybind11_args() -> list:
    """pybind11's CMake package when it comes from pip (build isolation); Debian's
    pybind11-dev is found by CMake itself."""
    try:
        import pybind11
    except ImportError:
        return []
    return [f"-Dpybind11_DIR={pybind11.get_cmake_dir()}"]


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        build = os.environ.get("BNSL_CMAKE_BUILD_DIR")
        if build:
            build = Path(build).resolve()
        else:
            build = Path(self.build_temp).resolve() / "cmake"
            configure = ["cmake", "-S", str(ROOT), "-B", str(build),
                         "-DCMAKE_BUILD_TYPE=Release", "-DBNSL_PYTHON=ON",
                         "-DBNSL_BUILD_TESTS=OFF", "-DBNSL_BUILD_BENCH=OFF", "-DBNSL_MAN=OFF",
                         f"-DPython_EXECUTABLE={sys.executable}", *pybind11_args(),
                         *shlex.split(os.environ.get("CMAKE_ARGS", ""))]
            subprocess.run(configure, check=True)
        jobs = str(self.parallel or os.cpu_count() or 1)
        subprocess.run(["cmake", "--build", str(build), "--target", "_bnsl", "-j", jobs],
                       check=True)
        built = sorted((build / "python" / "bnsl").glob("_bnsl*.so"))
        if not built:
            raise RuntimeError(f"no _bnsl module in {build}/python/bnsl (is BNSL_PYTHON on "
                               "and pybind11 found?)")
        target = Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built[-1], target)


setup(
    version=cmake_version(),
    packages=["bnsl"],
    package_dir={"bnsl": "python/bnsl"},
    ext_modules=[Extension("bnsl._bnsl", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    options={"build": {"build_base": "build-python"}},  # build/ is CMake's
    zip_safe=False,
)
