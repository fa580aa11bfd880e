"""Build the C extensions: the hand-analysis kernel, the fan calculator's fast path and the RL
observation planes' shared cells (the rest of the package is pure Python).

The kernel's lookup tables (about 40 MB) are built here, once: ``BuildExt`` loads the kernel it
has just compiled and writes its tables file beside it, which every process then maps read-only
(see the top of ``_kernel.c``).
"""

import hashlib
import os
from importlib.machinery import ExtensionFileLoader
from importlib.util import module_from_spec, spec_from_file_location
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

KERNEL = "erren.analysis._kernel"
KERNEL_SOURCE = "src/erren/analysis/_kernel.c"
TABLES_FILE = "_kernel_tables.bin"  # the kernel's TABLES_FILE


def kernel_stamp() -> str:
    """A hash of the kernel's source, compiled into the kernel and written in its tables file's
    header: a kernel maps only a file written by a kernel built from the same source."""
    digest = hashlib.sha256(Path(KERNEL_SOURCE).read_bytes()).hexdigest()
    return f"0x{digest[:16]}ULL"


def replace_file(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a new file, so that a process mapping the old one keeps
    it whole."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


class BuildExt(build_ext):
    """``build_ext`` that also writes the kernel's tables file beside the kernel it has built (in
    the build directory, whose files go into a wheel), copies it into the source tree with the
    kernel (``--inplace``, editable installs) and lists it among its outputs."""

    def initialize_options(self) -> None:
        super().initialize_options()
        self.parallel = True  # the two extensions compile at once (one per core)

    def build_extension(self, ext: Extension) -> None:
        super().build_extension(ext)
        if ext.name == KERNEL:
            self.write_tables(Path(self.get_ext_fullpath(ext.name)))

    def write_tables(self, kernel: Path) -> None:
        tables = kernel.with_name(TABLES_FILE)
        if not self.force and tables.exists() and tables.stat().st_mtime >= kernel.stat().st_mtime:
            return  # written from this very kernel
        try:
            loader = ExtensionFileLoader(KERNEL, str(kernel))
            module = module_from_spec(spec_from_file_location(KERNEL, kernel, loader=loader))
            image = module.tables_image()
        except ImportError as exc:  # e.g. cross-compiled: the kernel builds its tables at run time
            self.warn(f"{TABLES_FILE} not written (the kernel does not load here: {exc})")
            return
        replace_file(tables, image)

    def tables(self) -> tuple[Path, Path]:
        """(the tables file in the build directory, its place in the source tree)."""
        package = KERNEL.rpartition(".")[0]
        build_py = self.get_finalized_command("build_py")
        built = Path(self.build_lib, *package.split("."), TABLES_FILE)
        return built, Path(build_py.get_package_dir(package), TABLES_FILE)

    def copy_extensions_to_source(self) -> None:
        super().copy_extensions_to_source()
        built, inplace = self.tables()
        if built.exists():
            replace_file(inplace, built.read_bytes())

    def get_output_mapping(self) -> dict[str, str]:
        mapping = super().get_output_mapping()
        built, inplace = self.tables()
        if self.inplace and built.exists():
            mapping[str(built)] = str(inplace)
        return mapping

    def get_outputs(self) -> list[str]:
        outputs = super().get_outputs()  # with inplace, the keys of get_output_mapping
        built, _ = self.tables()
        if not self.inplace and built.exists():
            outputs.append(str(built))
        return outputs


setup(
    cmdclass={"build_ext": BuildExt},
    ext_modules=[
        Extension(
            KERNEL,
            sources=[KERNEL_SOURCE],
            define_macros=[("ERREN_KERNEL_STAMP", kernel_stamp())],
            extra_compile_args=["-O2", "-std=c11", "-Wall", "-Wextra"],
        ),
        Extension(
            "erren.rl._planes",
            sources=["src/erren/rl/_planes.c"],
            extra_compile_args=["-O2", "-std=c11", "-Wall", "-Wextra"],
        ),
        Extension(
            "erren.families.guobiao.scoring._fastfan",
            sources=["src/erren/families/guobiao/scoring/_fastfan.c"],
            depends=["src/erren/families/guobiao/scoring/_fastfan_tables.h"],
            extra_compile_args=["-O2", "-std=c11", "-Wall", "-Wextra"],
        ),
    ],
)
