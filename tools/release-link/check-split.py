#!/usr/bin/python3
"""check-split.py REFERENCE REFERENCE.map SPLIT SPLIT.map: checks that an executable linked with
objects split by split-text.py means what the same program linked with the original objects
means, instruction by instruction.

Each executable is disassembled (objdump) and every address an instruction names (a call or
jump target, a PC-relative operand) is written as where it comes from: the input file, its
section and the offset in it, read from the linker's map (-Map). A function split out of a
`.text` counts as that `.text` at its original offset. The two programs place their code
differently; what each instruction refers to must be the same. Jump tables are checked too:
found in the reference's code (lea of a table, then an indexed load and an indirect jump),
each case of each table must lead to the same place in both.

Exit status 0 when everything compared is the same; 1 and the differences otherwise.
"""

import bisect
import os
import re
import struct
import subprocess
import sys


def stem(path):
    """The object a map line names: "lib.a(Swift.o)" and "/x/Swift.o" are both "Swift"."""
    member = re.search(r"\(([^()]+)\)$", path)
    name = os.path.basename(member.group(1) if member else path)
    return name[:-2] if name.endswith(".o") else name


unplaceable = set()  # (object, original .text offset) of fields before a merged string
split_starts = {}  # object -> the original offsets of its functions


SECTION_TYPES = {1: "PROGBITS", 4: "RELA"}


def section_headers(path):
    """[(index, name, type, size)] of a 64-bit little-endian ELF object's sections, read from
    the file itself: readelf shortens long section names (binutils 2.44 cuts them at 256
    characters, and Swift's mangled names are longer), and the names are what is compared."""
    data = open(path, "rb").read()
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        raise SystemExit(f"check-split: {path} is not a 64-bit little-endian ELF object")
    offset, = struct.unpack_from("<Q", data, 0x28)
    entry_size, count, names_index = struct.unpack_from("<HHH", data, 0x3A)
    headers = [struct.unpack_from("<IIQQQQIIQQ", data, offset + i * entry_size)
               for i in range(count)]
    names_offset = headers[names_index][4]

    def name(at):
        start = names_offset + at
        return data[start:data.index(b"\0", start)].decode("utf-8", "replace")

    return [(i, name(h[0]), SECTION_TYPES.get(h[1], str(h[1])), h[5])
            for i, h in enumerate(headers) if i > 0]


def read_map(path, split_objects=()):
    """[(address, size, object, section, original offset)] of the input sections, sorted.

    For a split object's functions the section is ".text" and the original offset is where the
    function was in it: the functions' sections come after all the original sections, in their
    original order, so it is the sum of the sizes of those before it."""
    originals = {}
    for obj in split_objects:
        # split-text.py appends the functions' sections after all the original ones, then
        # their relocation sections: read back from the end.
        rows = section_headers(obj)
        end = len(rows)
        while end > 0 and rows[end - 1][2] == "RELA":
            end -= 1
        start = end
        while start > 0 and rows[start - 1][2] == "PROGBITS" and \
                rows[start - 1][1].startswith(".text."):
            start -= 1
        offset, table, by_index = 0, {}, {}
        for index, name, _, size in rows[start:end]:
            table[name] = None if name in table else offset
            by_index[index] = offset
            offset += size
        originals[os.path.abspath(obj)] = table
        split_starts[stem(obj)] = set(by_index.values())
        unplaceable.update((stem(obj), f) for f in before_strings(obj, by_index))
    result, seen = [], {}
    for line in open(path):
        fields = line.split(None, 4)
        if len(fields) < 5 or ":(" not in fields[4]:
            continue
        source, section = fields[4].strip().rsplit(":(", 1)
        section = section[:-1]
        address, size = int(fields[0], 16), int(fields[2], 16)
        table = originals.get(os.path.abspath(source))
        if table is not None and section in table:
            original = table[section]
            result.append((address, size, stem(source), ".text" if original is not None
                           else "ambiguous " + section, original or 0))
        else:
            # An object may have several sections of one name (".rodata"): the nth of them.
            count = seen.get((source, section), 0)
            seen[(source, section)] = count + 1
            result.append((address, size, stem(source), f"{section}#{count}" if count else section,
                           0))
    result.sort()
    return result


def before_strings(obj, originals):
    """The original .text offsets of the fields that point before a merged string ("string - n":
    the linker places what precedes a string differently in each link, so what such a field
    leads to is not comparable; the field itself is a copy of the original relocation)."""
    blob = open(obj, "rb").read()
    header = struct.unpack_from("<16sHHIQQQIHHHHHH", blob, 0)
    shoff, shnum = header[6], header[12]
    sections = [struct.unpack_from("<IIQQQQIIQQ", blob, shoff + 64 * i) for i in range(shnum)]
    symtab = next(s for s in sections if s[1] == 2)
    symbols = [struct.unpack_from("<IBBHQQ", blob, symtab[4] + 24 * i)
               for i in range(symtab[5] // 24)]
    fields = set()
    for s in sections:
        if s[1] != 4 or s[7] not in originals:
            continue
        for i in range(s[5] // 24):
            offset, info, addend = struct.unpack_from("<QQq", blob, s[4] + 24 * i)
            symbol = symbols[info >> 32]
            if symbol[3] < shnum and sections[symbol[3]][2] & 0x10 and addend + 4 < 0:
                fields.add(originals[s[7]] + offset)
    return fields


class Places:
    """Where an address of one executable comes from, written the same in every link."""

    def __init__(self, binary, sections):
        self.sections = sections
        self.starts = [s[0] for s in sections]
        self.image = open(binary, "rb").read()
        self.segments = []
        headers = subprocess.run(["readelf", "-lW", binary], capture_output=True, text=True,
                                 check=True).stdout
        for line in headers.splitlines():
            fields = line.split()
            if fields and fields[0] == "LOAD":
                self.segments.append((int(fields[2], 16), int(fields[1], 16), int(fields[4], 16)))
        listing = subprocess.run(["objdump", "-d", "-j", ".plt", binary], capture_output=True,
                                 text=True).stdout
        self.plt = {}
        for line in listing.splitlines():
            match = re.match(r"^([0-9a-f]+) <(.*)>:", line)
            if match:
                self.plt[int(match.group(1), 16)] = match.group(2)

        # A function or variable defined in more than one object (a weak definition the
        # compiler emits wherever it is used) is the one the link picked: both links name it.
        self.functions = {}
        listing = subprocess.run(["nm", "--defined-only", binary], capture_output=True,
                                 text=True, check=True).stdout
        for line in listing.splitlines():
            fields = line.split()
            if len(fields) == 3 and fields[1] in "tTwWdDbBrRvV" and not re.search(
                    r"\.private\.[0-9a-f]+$", fields[2]):
                address = int(fields[0], 16)
                if fields[2] < self.functions.get(address, "\U0010ffff"):
                    self.functions[address] = fields[2]

        # The dynamic relocations: what the loader puts into a GOT entry.
        self.dynamic = {}
        listing = subprocess.run(["readelf", "-rW", binary], capture_output=True, text=True,
                                 check=True).stdout
        for line in listing.splitlines():
            fields = line.split()
            if len(fields) >= 5 and fields[2].startswith("R_X86_64_") and fields[2] != \
                    "R_X86_64_RELATIVE":
                self.dynamic[int(fields[0], 16)] = fields[4]

    def read(self, address, count):
        for start, offset, size in self.segments:
            if start <= address < start + size:
                at = offset + address - start
                return self.image[at:at + count]
        return b""

    def name(self, address):
        if address in self.functions:
            return self.functions[address]
        k = bisect.bisect_right(self.starts, address) - 1
        if k < 0:
            return f"unplaced {address:#x}"
        start, size, obj, section, original = self.sections[k]
        if not (address < start + size or (address == start + size and size == 0)):
            return f"unplaced {address:#x}"
        if obj == "<internal>":
            # What the linker made or merged is placed differently in each link: it is
            # written as what it is (a PLT entry's function, a merged constant's bytes).
            if section == ".plt":
                return self.plt.get(address, f"plt {address - start:#x}")
            if section == ".got":
                if address in self.dynamic:
                    return "got of " + self.dynamic[address]
                value = int.from_bytes(self.read(address, 8), "little")
                return "got of " + (self.name(value) if value else "nothing")
            constant = re.match(r"\.rodata\.cst(\d+)$", section)
            if constant:
                return "constant " + self.read(address, int(constant.group(1))).hex()
            if section.startswith(".rodata.str"):
                text = self.read(address, 256).split(b"\0")[0]
                return "string " + text.decode("latin-1")
        return f"{obj}:{section}+{original + address - start:#x}"


def disassemble(binary, places, only=None, listing=None):
    """{place of an instruction: the instruction with its addresses written as places}; the
    raw instructions [(address, text)] appended to listing, when given."""
    process = subprocess.Popen(["objdump", "-d", "--no-show-raw-insn", "-j", ".text",
                                "-j", ".text.private", binary], stdout=subprocess.PIPE,
                               text=True)
    code = {}
    for line in process.stdout:
        match = re.match(r"^\s*([0-9a-f]+):\t(.*)$", line)
        if not match:
            continue
        address = int(match.group(1), 16)
        text = match.group(2)
        place = places.name(address)
        if only is not None and not only(place):
            continue
        if listing is not None:
            listing.append((address, text))
        text = re.sub(r"# ([0-9a-f]+) <[^>]*>",
                      lambda m: "# " + places.name(int(m.group(1), 16)), text)
        text = re.sub(r"-?0x[0-9a-f]+\(%rip\)", "(%rip)", text)
        text = re.sub(r"^(\S+\s+)([0-9a-f]+) <[^>]*>",
                      lambda m: m.group(1) + places.name(int(m.group(2), 16)), text)
        code[place] = text.strip()
    process.wait()
    return code


def jump_tables(listing):
    """[(table start, cases)] of the jump tables the code uses: "cmp $n, %i; ja default",
    then "lea table(%rip), %t; movslq (%t,%i,4), %c; add %t, %c; jmp *%c"."""
    tables, unbounded = [], 0
    for k, (address, text) in enumerate(listing):
        load = re.match(r"movslq \(%(\w+),%(\w+),4\),%(\w+)", text)
        if not load:
            continue
        table, index, case = load.groups()
        following = " ; ".join(t for _, t in listing[k + 1:k + 4])
        if not re.search(rf"add\s+%{table},%{case}\b.*jmp\s+\*%{case}\b", following):
            continue
        start = None
        for _, before in reversed(listing[max(0, k - 4):k]):
            lea = re.match(rf"lea\s+\S*\(%rip\),%{table}\s+# ([0-9a-f]+)", before)
            if lea:
                start = int(lea.group(1), 16)
                break
        cases = None
        low = index[1:] if index.startswith("r") else index
        for n, (_, before) in enumerate(reversed(listing[max(0, k - 14):k])):
            bound = re.match(r"cmp[lq]?\s+\$0x([0-9a-f]+),%(\w+)", before)
            if bound and bound.group(2).lstrip("er").rstrip("d") == low.lstrip("er").rstrip("d"):
                after = listing[k - n][1] if n else ""
                if after.startswith("ja "):
                    cases = int(bound.group(1), 16) + 1
                elif after.startswith("jae "):
                    cases = int(bound.group(1), 16)
                break
        if start is None:
            unbounded += 1
            continue
        tables.append((start, cases, address))
    return tables, unbounded


def main():
    if len(sys.argv) < 5:
        sys.exit("usage: check-split.py REFERENCE REFERENCE.map SPLIT SPLIT.map SPLIT-OBJECT...")
    reference, reference_map, split, split_map = sys.argv[1:5]
    objects = sys.argv[5:]
    names = {stem(o) for o in objects}

    ours = Places(reference, read_map(reference_map))
    theirs = Places(split, read_map(split_map, objects))

    def in_split(place):
        return place.split(":", 1)[0] in names

    listing = []
    before = disassemble(reference, ours, in_split, listing)
    after = disassemble(split, theirs, in_split)
    common = before.keys() & after.keys()
    def explained(place):
        obj, rest = place.split(":", 1)
        if not rest.startswith(".text+"):
            return False
        start = int(rest[6:], 16)
        return any((obj, start + k) in unplaceable for k in range(1, 15))

    differences = [p for p in sorted(common) if before[p] != after[p] and not explained(p)]
    explained_count = sum(1 for p in common if before[p] != after[p] and explained(p))
    for place in differences[:20]:
        print(f"{place}: {before[place]}  |  {after[place]}")
    # Jump tables: each case, in each link, read from the table the code loads.
    function_starts = {obj: sorted(offsets) for obj, offsets in split_starts.items()}

    def function_of(place):
        """The function of a split .text a place is in, as (object, its start)."""
        obj, _, rest = place.partition(":")
        if not rest.startswith(".text+") or obj not in function_starts:
            return None
        offset = int(rest[6:], 16)
        starts = function_starts[obj]
        k = bisect.bisect_right(starts, offset) - 1
        return (obj, starts[k]) if k >= 0 else None

    tables, unbounded = jump_tables(listing)
    where = {}
    for address, size, obj, section, original in theirs.sections:
        where[(obj, section, original)] = address
    cases_checked = 0
    starts_of_tables = sorted(t[0] for t in tables)
    for start, cases, user in tables:
        if cases is None:
            # No bound found in the code (an index made by bsr, say): the cases are the entries
            # that lead into the function using the table, up to the next table.
            function = function_of(ours.name(user))
            following = starts_of_tables[bisect.bisect_right(starts_of_tables, start):]
            limit = (following[0] - start) // 4 if following else 256
            cases = 0
            while cases < min(limit, 256):
                case = start + int.from_bytes(ours.read(start + 4 * cases, 4), "little",
                                              signed=True)
                if function is None or function_of(ours.name(case)) != function:
                    break
                cases += 1
            if cases == 0:
                continue
        obj, rest = ours.name(start).split(":", 1)
        section, offset = rest.rsplit("+", 1)
        theirs_start = where.get((obj, section, 0))
        if theirs_start is None:
            differences.append(f"table {ours.name(start)}: not in the split link")
            continue
        theirs_start += int(offset, 16)
        for n in range(cases):
            ours_case = start + int.from_bytes(ours.read(start + 4 * n, 4), "little", signed=True)
            theirs_case = theirs_start + int.from_bytes(theirs.read(theirs_start + 4 * n, 4),
                                                        "little", signed=True)
            cases_checked += 1
            if ours.name(ours_case) != theirs.name(theirs_case):
                differences.append(f"table {ours.name(start)} case {n}: {ours.name(ours_case)}"
                                   f"  |  {theirs.name(theirs_case)}")
    print(f"check-split: {len(tables)} jump tables, {cases_checked} cases compared "
          f"({unbounded} indexed jumps whose table was not found)")
    for line in [d for d in differences if d.startswith("table ")][:20]:
        print(line)
    ambiguous = sum(1 for p in after if "ambiguous" in p)
    print(f"check-split: {len(common)} instructions compared ({len(before)} in the reference, "
          f"{len(after)} kept in the split link, {ambiguous} not placed), "
          f"{len(differences)} differ ({explained_count} more lead before a merged string, "
          "placed differently by each link)")
    sys.exit(1 if differences or not common else 0)


if __name__ == "__main__":
    main()
