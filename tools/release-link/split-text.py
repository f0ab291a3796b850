#!/usr/bin/python3
"""split-text.py IN.o OUT.o: the same relocatable object with its one `.text` section split into
a section per function, as the compiler writes it with -ffunction-sections.

Why: the linker orders code (--symbol-ordering-file) and drops unused code (--gc-sections) a
section at a time. The Swift toolchain's static standard library puts most of its internal
functions into one section of 1.6 MB (libswiftCore.a's Swift.o; the concurrency library's
_Concurrency.o has one of 0.25 MB). The kernel maps an executable's code 64 KB at a time around
each page a program runs, so the 200 or so functions of that section a program runs, scattered
over it, make nearly all of it resident. Split, they are placed with the rest of the code run
at start, and the functions no program calls are left out of the executable.

How: each function gets its own section, `.text.<its first symbol>`, with its own relocations,
and its symbols point into it. A function starts at a function symbol, or where the call frame
information says one starts (a private function has no symbol: it gets a local one,
`<object>.private.<offset>`, so that a profile can name it and a symbol order place it). Three
kinds of reference must follow a function to its section:

- a relocation elsewhere that names the whole `.text` (the assembler writes a local function's
  address as "the section + offset") is pointed at the section of the function it means, with
  the offset made relative to that section. In code, a 32-bit PC-relative reference (call,
  jump, lea) means the address 4 bytes past its offset (measured from the end of the
  instruction's 4-byte field); in a jump table (read-only data whose start code loads with a
  PC-relative lea), an entry is "case - table start", so it means its offset less its
  distance from the table's start, in the function that loads the table; anywhere else (call
  frame information, absolute and self-relative pointers), the offset itself;
- a call, jump or lea from one function to another that the assembler resolved itself (no
  relocation says so: both were in one section) is found in objdump's disassembly and gets a
  relocation;
- a short jump (8 bits) to another function cannot take a relocation: the two functions, and
  any between, stay in one section.

Everything is checked: every function's symbols must fit its section, every reference must fall
inside .text, a jump table's cases inside the function that uses it, and every displacement the
disassembly shows must be found in its instruction. An object this cannot split safely is
refused (exit status 1 and a one-line reason) rather than written, and one without a `.text` of
functions is copied unchanged. tools/release-link/check-split.py compares a program linked with the result
against the same program linked with the original, instruction by instruction.

Only ELF64 little-endian x86-64 relocatable objects, as the Swift toolchain for Linux ships.
"""

import bisect
import os
import re
import subprocess
import struct
import sys

SHT_SYMTAB, SHT_RELA, SHT_GROUP, SHT_SYMTAB_SHNDX = 2, 4, 17, 18
SHT_LLVM_ADDRSIG = 0x6FFF4C03
SHF_WRITE, SHF_EXECINSTR, SHF_INFO_LINK = 0x1, 0x4, 0x40
STT_FUNC, STT_SECTION = 2, 3
STB_LOCAL = 0
SHN_LORESERVE = 0xFF00
R_X86_64_64, R_X86_64_PC32, R_X86_64_PLT32, R_X86_64_PC64 = 1, 2, 4, 24

EHDR = struct.Struct("<16sHHIQQQIHHHHHH")
SHDR = struct.Struct("<IIQQQQIIQQ")
SYM = struct.Struct("<IBBHQQ")
RELA = struct.Struct("<QQq")


class Refused(Exception):
    pass


class Section:
    def __init__(self, fields, data):
        (self.name_offset, self.type, self.flags, self.addr, self.offset, self.size,
         self.link, self.info, self.align, self.entsize) = fields
        self.data = data
        self.name = ""


def cstring(table, offset):
    end = table.index(b"\0", offset)
    return table[offset:end].decode("utf-8", "replace")


def resolved_references(path):
    """The PC-relative references in .text that the assembler resolved itself (a call or jump
    to, or an address of, a local function of the same section: no relocation says so), read
    from objdump's disassembly: [(instruction, length, field offset, field size, target)]."""
    listing = subprocess.run(["objdump", "-dr", "--insn-width=16", "-j", ".text", path],
                             capture_output=True, text=True, check=True).stdout
    instructions, relocated = [], set()
    for line in listing.splitlines():
        parts = line.split("\t")
        if len(parts) >= 3 and parts[0].strip().endswith(":") and not parts[0].startswith("0"):
            try:
                address = int(parts[0].strip()[:-1], 16)
            except ValueError:
                continue
            code = bytes.fromhex(parts[1].replace(" ", ""))
            instructions.append((address, code, parts[2]))
        elif len(parts) >= 4 and parts[3].split(":")[0].strip() and "R_X86_64" in line:
            relocated.add(int(parts[3].split(":")[0], 16))
    found = []
    for address, code, text in instructions:
        end = address + len(code)
        if any(a in relocated for a in range(address, end)):
            continue
        words = text.split(None, 1)
        if len(words) < 2:
            continue
        mnemonic, operands = words
        target = None
        branch = re.match(r"^([0-9a-f]+) <", operands)
        if branch and (mnemonic.startswith(("j", "call", "loop", "xbegin"))):
            target = int(branch.group(1), 16)
        else:
            relative = re.search(r"# ([0-9a-f]+) <", operands)
            if relative and "(%rip)" in operands:
                target = int(relative.group(1), 16)
        if target is None:
            continue
        displacement = target - end
        fields = [i for i in range(len(code) - 3)
                  if struct.unpack_from("<i", code, i)[0] == displacement]
        if branch and fields and fields[-1] == len(code) - 4:
            fields = fields[-1:]
        if len(fields) == 1:
            found.append((address, len(code), fields[0], 4, target))
        elif branch and struct.unpack_from("<b", code, len(code) - 1)[0] == displacement:
            found.append((address, len(code), len(code) - 1, 1, target))
        else:
            raise Refused(f"cannot find the displacement of {text.strip()} at {address:#x}")
    return found


def split(blob, path):
    header = EHDR.unpack_from(blob, 0)
    ident, etype, machine = header[0], header[1], header[2]
    if ident[:4] != b"\x7fELF" or ident[4] != 2 or ident[5] != 1:
        raise Refused("not a 64-bit little-endian ELF file")
    if etype != 1 or machine != 62:
        raise Refused("not an x86-64 relocatable object")
    shoff, shentsize, shnum, shstrndx = header[6], header[11], header[12], header[13]
    if shnum == 0 or shstrndx == 0xFFFF:
        raise Refused("more sections than the ELF header counts (not supported)")
    sections = []
    for index in range(shnum):
        fields = SHDR.unpack_from(blob, shoff + index * shentsize)
        type_, offset, size = fields[1], fields[4], fields[5]
        data = b"" if type_ == 8 else blob[offset:offset + size]  # SHT_NOBITS has no bytes
        sections.append(Section(fields, data))
    names = sections[shstrndx].data
    for section in sections:
        section.name = cstring(names, section.name_offset)

    if any(s.type in (SHT_GROUP, SHT_SYMTAB_SHNDX, SHT_LLVM_ADDRSIG) for s in sections):
        raise Refused("section groups, extended section indexes or an address-significance table")
    texts = [i for i, s in enumerate(sections) if s.name == ".text" and s.flags & SHF_EXECINSTR]
    symtabs = [i for i, s in enumerate(sections) if s.type == SHT_SYMTAB]
    if len(texts) != 1 or len(symtabs) != 1 or sections[texts[0]].size == 0:
        return None
    text_index, symtab_index = texts[0], symtabs[0]
    text, symtab = sections[text_index], sections[symtab_index]
    strtab = sections[symtab.link].data

    symbols = [list(SYM.unpack_from(symtab.data, i * SYM.size))
               for i in range(len(symtab.data) // SYM.size)]
    first_global = symtab.info
    section_symbols = [i for i, s in enumerate(symbols)
                       if s[1] & 0xF == STT_SECTION and s[3] == text_index]

    relas = {}  # index of a RELA section -> its entries as lists
    for i, s in enumerate(sections):
        if s.type == SHT_RELA:
            if s.link != symtab_index:
                raise Refused(f"{s.name} refers to another symbol table")
            relas[i] = [list(RELA.unpack_from(s.data, j * RELA.size))
                        for j in range(len(s.data) // RELA.size)]

    # The functions: each starts at a function symbol, or where call frame information says
    # a function starts (a private function has no symbol), and ends at the next.
    functions = [(s[4], s[5]) for s in symbols if s[3] == text_index and s[1] & 0xF == STT_FUNC]
    frames = set()
    for rela_index, entries in relas.items():
        if sections[sections[rela_index].info].name == ".eh_frame":
            frames.update(e[2] for e in entries
                          if e[1] >> 32 in section_symbols and e[1] & 0xFFFFFFFF == R_X86_64_PC32)
    inside = sorted((start, start + size) for start, size in functions if size > 0)
    firsts = [a for a, _ in inside]

    def within_function(offset):
        """Whether offset is inside a function's symbol, past its start (functions do not
        overlap: checked below)."""
        k = bisect.bisect_right(firsts, offset) - 1
        return k >= 0 and inside[k][0] < offset < inside[k][1]

    starts = sorted({start for start, _ in functions} | {0}
                    | {f for f in frames if not within_function(f)})
    starts = [b for b in starts if b < text.size]
    if len(starts) < 2:
        return None
    ends = starts[1:] + [text.size]
    for start, size in functions:
        k = bisect.bisect_right(starts, start) - 1
        if start + size > ends[k]:
            raise Refused(f"a function at {start:#x} runs past the next one")

    # References the assembler resolved: a 32-bit one to another function gets a relocation; a
    # short jump (8 bits) to another function keeps the two, and any between, together.
    references = resolved_references(path)
    joined = set()
    for address, length, field, size, target in references:
        if size == 1:
            low, high = sorted((address, target))
            joined.update(b for b in starts if low < b <= high)
    starts = [b for b in starts if b not in joined]
    ends = starts[1:] + [text.size]

    def chunk_of(offset, allow_end=False):
        """The function containing offset (the last one for the end of .text, when allow_end)."""
        if offset < 0 or offset > text.size or (offset == text.size and not allow_end):
            return None
        return bisect.bisect_right(starts, offset) - 1

    # Jump tables. Code loads a table's start with a PC-relative lea of "data section +
    # offset"; the table is a run of 4-byte PC-relative entries to .text from there on.
    section_of_symbol = {i: s[3] for i, s in enumerate(symbols) if s[1] & 0xF == STT_SECTION}
    table_users = {}  # (data section, start) -> the functions of .text that load it
    for rela_index, entries in relas.items():
        code = sections[rela_index].info
        if not sections[code].flags & SHF_EXECINSTR:
            continue
        for offset, info, addend in entries:
            target = section_of_symbol.get(info >> 32)
            if (target is not None and info & 0xFFFFFFFF == R_X86_64_PC32
                    and target < len(sections) and not sections[target].flags & SHF_EXECINSTR):
                user = chunk_of(offset) if code == text_index else -1
                table_users.setdefault((target, addend + 4), set()).add(user)
    # A table is the run of PC-relative entries to .text from a start on, in read-only data,
    # whose cases all lead into one function that loads the start. (A relative pointer to a
    # function in read-only data that code loads, such as a type descriptor's to its
    # accessor, is not a table: its "case" leads elsewhere.)
    entry_at = {}  # (data section, offset) -> addend, for PC-relative entries to .text
    for rela_index, entries in relas.items():
        place = sections[rela_index].info
        if sections[place].flags & (SHF_EXECINSTR | SHF_WRITE):
            continue
        for offset, info, addend in entries:
            if info >> 32 in section_symbols and info & 0xFFFFFFFF == R_X86_64_PC32:
                entry_at[(place, offset)] = addend
    table_case = {}  # (data section, offset of an entry) -> (case, function)
    for (place, start), users in sorted(table_users.items()):
        if (place, start) not in entry_at or (place, start) in table_case:
            continue
        for user in users:
            if user < 0:
                continue
            cases, offset = {}, start
            while (place, offset) in entry_at and (offset == start or (place, offset) not in
                                                   table_users):
                case = entry_at[(place, offset)] - (offset - start)
                if not starts[user] <= case <= ends[user]:
                    break
                cases[(place, offset)] = (case, user)
                offset += 4
            else:
                table_case.update(cases)
                break

    counts = {"code": 0, "table": 0, "data": 0}

    def meant(rela_index, offset, kind, addend):
        """The offset in .text a relocation against its section symbol means, and its function
        when that is not the one the offset is in (None otherwise)."""
        place = sections[rela_index].info
        if sections[place].flags & SHF_EXECINSTR:
            if kind in (R_X86_64_PC32, R_X86_64_PLT32):
                counts["code"] += 1
                return addend + 4, None
            if kind == R_X86_64_64:
                counts["code"] += 1
                return addend, None
            raise Refused(f"relocation type {kind} to .text in {sections[place].name}")
        if kind == R_X86_64_PC32 and (place, offset) in table_case:
            counts["table"] += 1
            return table_case[(place, offset)]
        if kind == R_X86_64_PC32:
            counts["data"] += 1
            return addend, None
        if kind in (R_X86_64_64, R_X86_64_PC64):
            counts["data"] += 1
            return addend, None
        raise Refused(f"relocation type {kind} to .text in {sections[place].name}")

    # New sections, appended after the existing ones so no index changes: a section per
    # function, then a relocation section for each that has relocations.
    count = len(starts)
    first_new = len(sections)
    chunk_section = [first_new + k for k in range(count)]
    # A section symbol per function, inserted after the last local symbol, and a symbol for
    # each function that has none (a private one), named after the object and its offset, so
    # a profile can name it and a symbol order place it.
    new_symbol = [first_global + k for k in range(count)]
    named = {s[4] for s in symbols if s[3] == text_index and s[1] & 0xF == STT_FUNC}
    unnamed = [k for k in range(count) if starts[k] not in named]
    stem = os.path.basename(path).rsplit(".", 1)[0]
    shift = count + len(unnamed)

    def private_name(k):
        return f"{stem}.private.{starts[k]:x}"

    def renumber(symbol):
        return symbol if symbol < first_global else symbol + shift

    text_relocations = [[] for _ in range(count)]
    resolved = 0
    for address, length, field, size, target in references:
        here, there = chunk_of(address), chunk_of(target, allow_end=True)
        if there is None:
            raise Refused(f"the instruction at {address:#x} leads to {target:#x}, outside .text")
        if here == there:
            continue
        if size != 4:
            raise Refused(f"a short jump at {address:#x} to another function")
        place = address + field
        addend = (target - starts[there]) - (address + length - place)
        text_relocations[here].append((place - starts[here], (new_symbol[there] << 32)
                                       | R_X86_64_PC32, addend))
        resolved += 1
    counts["resolved"] = resolved
    for rela_index, entries in relas.items():
        moving = sections[rela_index].info == text_index
        for entry in entries:
            offset, info, addend = entry
            symbol, kind = info >> 32, info & 0xFFFFFFFF
            if symbol in section_symbols:
                target, k = meant(rela_index, offset, kind, addend)
                if k is None:
                    k = chunk_of(target, allow_end=True)
                if k is None:
                    name = sections[sections[rela_index].info].name
                    raise Refused(f"a relocation in {name} at {offset:#x} means {target:#x}, "
                                  "outside .text")
                symbol, addend = new_symbol[k], addend - starts[k]
            else:
                symbol = renumber(symbol)
            info = (symbol << 32) | kind
            if moving:
                k = chunk_of(offset)
                text_relocations[k].append((offset - starts[k], info, addend))
            else:
                entry[1], entry[2] = info, addend
        if moving:
            entries.clear()

    # Symbols: those in .text point into their function's section; the new section symbols
    # follow the locals.
    for s in symbols:
        if s[3] == text_index and s[1] & 0xF != STT_SECTION:
            k = chunk_of(s[4], allow_end=True)
            s[3], s[4] = chunk_section[k], s[4] - starts[k]
    strings = bytearray(strtab)
    private = []
    for k in unnamed:
        private.append([len(strings), STT_FUNC | (STB_LOCAL << 4), 0, chunk_section[k], 0,
                        ends[k] - starts[k]])
        strings.extend(private_name(k).encode() + b"\0")
    new_symbols = (symbols[:first_global]
                   + [[0, STT_SECTION | (STB_LOCAL << 4), 0, chunk_section[k], 0, 0]
                      for k in range(count)]
                   + private
                   + symbols[first_global:])

    # Section names (in the same table as the symbols' when the object shares one).
    names = strings if symtab.link == shstrndx else bytearray(names)

    def name(text_):
        offset = len(names)
        names.extend(text_.encode() + b"\0")
        return offset

    first_symbol_name = {}
    for s in sorted(symbols, key=lambda s: (s[1] >> 4 == STB_LOCAL, s[4])):
        if s[3] >= first_new and s[1] & 0xF == STT_FUNC:
            first_symbol_name.setdefault(s[3], cstring(strtab, s[0]))
    added = []
    for k in range(count):
        body = text.data[starts[k]:ends[k]]
        align = 1
        while align < text.align and starts[k] % (align * 2) == 0:
            align *= 2
        section = Section((0, text.type, text.flags, 0, 0, len(body), 0, 0, align, 0), body)
        section.name = ".text." + first_symbol_name.get(chunk_section[k], private_name(k))
        added.append(section)
    for k in range(count):
        if text_relocations[k]:
            data = b"".join(RELA.pack(*e) for e in text_relocations[k])
            section = Section((0, SHT_RELA, SHF_INFO_LINK, 0, 0, len(data), symtab_index,
                               chunk_section[k], 8, RELA.size), data)
            section.name = ".rela" + added[k].name
            added.append(section)
    sections.extend(added)
    if len(sections) >= SHN_LORESERVE:
        raise Refused(f"{len(sections)} sections would need extended section indexes")

    for i, entries in relas.items():
        sections[i].data = b"".join(RELA.pack(*e) for e in entries)
    text.data, text.size = b"", 0
    symtab.data = b"".join(SYM.pack(*s) for s in new_symbols)
    symtab.size, symtab.info = len(symtab.data), first_global + shift
    for section in added:
        section.name_offset = name(section.name)
    sections[shstrndx].data = bytes(names)
    sections[shstrndx].size = len(names)
    if symtab.link != shstrndx:
        sections[symtab.link].data = bytes(strings)

    # Layout: the header, each section's bytes at its alignment, the section headers.
    out = bytearray(EHDR.size)
    for section in sections[1:]:
        if section.type == 8:
            section.offset = len(out)
            continue
        align = max(section.align, 1)
        out.extend(b"\0" * (-len(out) % align))
        section.offset = len(out)
        out.extend(section.data)
        section.size = len(section.data)
    out.extend(b"\0" * (-len(out) % 8))
    header_offset = len(out)
    for section in sections:
        out.extend(SHDR.pack(section.name_offset, section.type, section.flags, section.addr,
                             section.offset, section.size, section.link, section.info,
                             section.align, section.entsize))
    fields = list(header)
    fields[6], fields[12] = header_offset, len(sections)
    out[:EHDR.size] = EHDR.pack(*fields)
    return bytes(out), count, counts


def main():
    arguments = [a for a in sys.argv[1:] if a != "-v"]
    if len(arguments) != 2:
        sys.exit("usage: split-text.py [-v] IN.o OUT.o")
    source, destination = arguments
    with open(source, "rb") as f:
        blob = f.read()
    try:
        result = split(blob, source)
    except (Refused, struct.error, ValueError, IndexError) as error:
        print(f"split-text: {source}: {error}", file=sys.stderr)
        sys.exit(1)
    with open(destination, "wb") as f:
        f.write(blob if result is None else result[0])
    if "-v" in sys.argv[1:]:
        summary = "unchanged" if result is None else f"{result[1]} functions, references {result[2]}"
        print(f"split-text: {source}: {summary}", file=sys.stderr)


if __name__ == "__main__":
    main()
