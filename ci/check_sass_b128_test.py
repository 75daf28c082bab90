#!/usr/bin/env python3
# Runs ci/check-sass-b128 on made-up disassembly, through a stand-in for
# cuobjdump that prints each "binary" file's text as its SASS, so the check's
# verdicts (split pair found, whole loads only, nothing recognized, no device
# code, cuobjdump failing) are tested without a GPU or a CUDA binary. The
# lines are spelled as CUDA 13.0's cuobjdump prints sm_90 and sm_100 SASS.
import os
import subprocess
import sys
import tempfile
import textwrap
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
CHECK = os.path.join(HERE, "check-sass-b128")

# Prints the file's text; a file whose text begins with NO-DEVICE-CODE or
# BROKEN fails as cuobjdump does for a host-only binary or a damaged one.
FAKE_CUOBJDUMP = textwrap.dedent("""\
    import sys
    text = open(sys.argv[-1]).read()
    if text.startswith("NO-DEVICE-CODE"):
        sys.stderr.write("cuobjdump info    : File '" + sys.argv[-1] + "' does not contain device code\\n")
        sys.exit(255)
    if text.startswith("BROKEN"):
        sys.stderr.write("cuobjdump fatal   : Could not open input file\\n")
        sys.exit(1)
    sys.stdout.write(text)
    """)


def insn(addr, text):
    return f"        /*{addr:04x}*/                   {text} ;   /* 0x000000065a207980 */"


def function(name, body):
    return "\n".join([f"\t\tFunction : {name}"] + body) + "\n"


WHOLE = function("whole", [
    insn(0x10, "IMAD.WIDE.U32 R76, R77, 0x10, R74"),
    insn(0x20, "LD.E.128.STRONG.GPU R68, desc[UR6][R76.64]"),
    insn(0x30, "LD.E.128.STRONG.GPU R64, desc[UR6][R76.64+0x200]"),
])
# The signature of a split descriptor load: the tag's 32-bit load at +16k and
# the value's 64-bit load at +16k+8, same base register, a few lines apart.
SPLIT = function("split", [
    insn(0x10, "LD.E.STRONG.GPU R4, desc[UR4][R2.64+0x10]"),
    insn(0x20, "IADD3 R9, R9, 0x1, RZ"),
    insn(0x30, "LD.E.64.STRONG.GPU R6, desc[UR4][R2.64+0x18]"),
])
# The same two loads, but the base register is written between them: two
# different addresses, not one word split in two.
REDEFINED = function("redefined", [
    insn(0x10, "LD.E.STRONG.GPU R4, desc[UR4][R2.64+0x10]"),
    insn(0x20, "IMAD.WIDE.U32 R2, R11, 0x10, R12"),
    insn(0x30, "LD.E.64.STRONG.GPU R6, desc[UR4][R2.64+0x18]"),
])
# Strong loads spelled in ways the check does not know: a global-space load,
# and a 16-byte load at system scope.
UNKNOWN = function("unknown", [
    insn(0x10, "LDG.E.64.STRONG.GPU R6, desc[UR4][R2.64+0x18]"),
    insn(0x20, "LD.E.128.STRONG.SYS R8, desc[UR4][R2.64]"),
])
# Strong loads no descriptor word is made of: a 2-byte value's and a CTA-scope
# one (the CUDA 13.0 test binaries hold both).
NARROW = function("narrow", [
    insn(0x10, "LD.E.U16.STRONG.GPU R34, desc[UR8][R34.64]"),
    insn(0x20, "LDG.E.STRONG.SM R5, desc[UR4][R2.64]"),
])
# An 8-byte descriptor's load alone (the u32 packed word): nothing 16-byte.
EIGHT_BYTE = function("eight_byte", [
    insn(0x10, "LD.E.64.STRONG.GPU R32, desc[UR6][R90.64]"),
])


class CheckSassB128(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.cuobjdump = os.path.join(self.dir.name, "cuobjdump")
        with open(self.cuobjdump, "w") as f:
            f.write(f"#!{sys.executable}\n" + FAKE_CUOBJDUMP)
        os.chmod(self.cuobjdump, 0o755)

    def tearDown(self):
        self.dir.cleanup()

    def binary(self, name, text):
        path = os.path.join(self.dir.name, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def check(self, *binaries):
        r = subprocess.run([sys.executable, CHECK, "--cuobjdump", self.cuobjdump, *binaries],
                           capture_output=True, text=True)
        return r.returncode, r.stdout, r.stderr

    def test_whole_loads_pass_and_are_counted(self):
        rc, out, _ = self.check(self.binary("a", WHOLE))
        self.assertEqual(rc, 0, out)
        self.assertIn("0 split 16-byte loads, 2 whole", out)

    def test_split_pair_fails_and_is_printed(self):
        rc, out, _ = self.check(self.binary("a", WHOLE), self.binary("b", SPLIT))
        self.assertEqual(rc, 1, out)
        self.assertIn("b: split", out)
        self.assertIn("desc[UR4][R2.64+0x10]", out)
        self.assertIn("desc[UR4][R2.64+0x18]", out)
        self.assertIn("b: 1 split 16-byte loads, 0 whole", out)

    def test_split_pair_alone_is_recognized(self):
        rc, out, _ = self.check(self.binary("b", SPLIT))
        self.assertEqual(rc, 1, out)

    def test_redefined_base_is_not_a_split(self):
        rc, out, _ = self.check(self.binary("a", WHOLE + REDEFINED))
        self.assertEqual(rc, 0, out)
        self.assertIn("0 split 16-byte loads, 2 whole", out)

    def test_nothing_recognized_checks_nothing(self):
        rc, out, err = self.check(self.binary("a", EIGHT_BYTE))
        self.assertEqual(rc, 2, out)
        self.assertIn("nothing checked", err)

    def test_unknown_spelling_is_not_a_pass(self):
        rc, out, err = self.check(self.binary("a", WHOLE), self.binary("u", UNKNOWN))
        self.assertEqual(rc, 2, out)
        self.assertIn("u: strong load of an unknown spelling: ", out)
        self.assertIn("LDG.E.64.STRONG.GPU", out)
        self.assertIn("LD.E.128.STRONG.SYS", out)
        self.assertIn("2 strong loads of an unknown spelling", err)

    def test_narrow_and_cta_scope_loads_are_not_unknown(self):
        rc, out, _ = self.check(self.binary("a", WHOLE + NARROW))
        self.assertEqual(rc, 0, out)
        self.assertNotIn("unknown spelling", out)

    def test_split_pair_outranks_unknown_spelling(self):
        rc, out, _ = self.check(self.binary("b", SPLIT), self.binary("u", UNKNOWN))
        self.assertEqual(rc, 1, out)

    def test_one_binary_with_whole_loads_covers_the_others(self):
        # A binary of 8-byte descriptors only (u32 scans) is checked, not refused.
        rc, out, _ = self.check(self.binary("a", WHOLE), self.binary("e", EIGHT_BYTE))
        self.assertEqual(rc, 0, out)
        self.assertIn("e: 0 split 16-byte loads, 0 whole", out)

    def test_host_only_binary_is_skipped(self):
        rc, out, _ = self.check(self.binary("host", "NO-DEVICE-CODE"), self.binary("a", WHOLE))
        self.assertEqual(rc, 0, out)
        self.assertIn("host: no device code, skipped", out)

    def test_only_host_binaries_check_nothing(self):
        rc, _, err = self.check(self.binary("host", "NO-DEVICE-CODE"))
        self.assertEqual(rc, 2)
        self.assertIn("no binary with device code", err)

    def test_cuobjdump_failure_is_an_error(self):
        rc, _, err = self.check(self.binary("a", WHOLE), self.binary("bad", "BROKEN"))
        self.assertEqual(rc, 2)
        self.assertIn("cuobjdump failed", err)


if __name__ == "__main__":
    unittest.main()
