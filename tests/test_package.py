import subprocess
import sys

from bobing_vision.cli.main import COMMANDS, main


def test_version_is_fast_and_imports_nothing_heavy() -> None:
    code = "import sys; from bobing_vision.cli.main import main; main(['--version']); print(sorted(m for m in ('cv2','onnxruntime','torch','numpy') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip().splitlines()[-1] == "[]"


def test_unknown_command_is_a_clear_error(capsys) -> None:
    assert main(["fly"]) == 2
    assert "unknown command 'fly'" in capsys.readouterr().err


def test_every_command_has_help_text() -> None:
    assert all(help_ for _, help_ in COMMANDS.values())
