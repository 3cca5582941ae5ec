"""What a reader of the docs relies on: each fact written once, every link leading somewhere, every package on the map.

The pages are the README, everything under docs/ (the ADRs and the generated pages included: a repeat there is
fixed in its source, config/docs.py or api/access.py), web/README.md and bench/RESULTS.md.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
ADR_INDEX = ROOT / "docs" / "adr" / "README.md"
PAGES = sorted([README, ROOT / "web" / "README.md", ROOT / "bench" / "RESULTS.md", *(ROOT / "docs").rglob("*.md")])

LINE = 120  # the docs wrap at 120 characters: a paragraph longer than that is more than a line
SENTENCE = 60  # a sentence this long says a fact of its own; a shorter one ("Tests:", "Status: accepted") may repeat
LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+\.)\s+")
FENCE = re.compile(r"^\s*(```|~~~)")
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
SENTENCE_END = re.compile(r"(?<=[.;:!?])\s+")


@dataclass(frozen=True)
class Paragraph:
    """A block between blank lines, or one list item with its continuation lines; tables and headings are not prose."""

    page: Path
    line: int
    lines: int
    text: str  # whitespace collapsed, the list marker dropped

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def prose_lines(page: Path) -> Iterator[tuple[int, str]]:
    """Every line outside fenced code blocks, numbered from 1; a code block's lines come back blank."""
    fenced = False
    for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), start=1):
        if FENCE.match(line):
            fenced = not fenced
            yield number, ""
        else:
            yield number, "" if fenced else line


def paragraphs(page: Path) -> Iterator[Paragraph]:
    block: list[tuple[int, str]] = []

    def close() -> Iterator[Paragraph]:
        if block:
            text = " ".join(" ".join(line.split()) for _, line in block)
            yield Paragraph(page, block[0][0], len(block), LIST_ITEM.sub("", text, count=1))
            block.clear()

    for number, line in prose_lines(page):
        stripped = line.strip()
        if not stripped or stripped.startswith(("|", "#", "<!--")):
            yield from close()
            continue
        if LIST_ITEM.match(line):
            yield from close()
        block.append((number, line))
    yield from close()


def repeated(texts: dict[str, list[str]]) -> list[str]:
    return [f"{' and '.join(places)}: {text[:100]}" for text, places in texts.items() if len(places) > 1]


def test_no_paragraph_longer_than_a_line_is_written_twice() -> None:
    """A reader who finds a paragraph twice cannot tell which copy is kept up to date: say it once, link to it."""
    seen: dict[str, list[str]] = defaultdict(list)
    for page in PAGES:
        for paragraph in paragraphs(page):
            if paragraph.lines > 1 or len(paragraph.text) > LINE:
                seen[paragraph.text].append(paragraph.where)
    assert repeated(seen) == []


def test_no_sentence_that_states_a_fact_is_written_twice() -> None:
    """Merges leave a sentence twice inside a paragraph, or a pasted fragment beside its newer self."""
    seen: dict[str, list[str]] = defaultdict(list)
    for page in PAGES:
        for paragraph in paragraphs(page):
            for sentence in SENTENCE_END.split(paragraph.text):
                if len(sentence) >= SENTENCE:
                    seen[sentence].append(paragraph.where)
    assert repeated(seen) == []


def anchor(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower().replace("`", ""))
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    """Every heading's anchor; a repeated heading's gets -1, -2, ... as on GitHub."""
    found: set[str] = set()
    times: dict[str, int] = defaultdict(int)
    for _, line in prose_lines(page):
        if match := re.match(r"#{1,6}\s+(.*)", line):
            slug = anchor(match.group(1))
            found.add(f"{slug}-{times[slug]}" if times[slug] else slug)
            times[slug] += 1
    return found


def links(page: Path) -> Iterator[str]:
    """Every link's and image's target, outside code blocks and code spans."""
    for _, line in prose_lines(page):
        yield from LINK.findall(re.sub(r"`[^`]*`", "", line))


def test_every_relative_link_leads_to_a_file_and_heading_that_exist() -> None:
    """A link is followed to learn more: it must land on a page that is there, at a heading that is there."""
    broken = []
    for page in PAGES:
        for target in links(page):
            if re.match(r"[a-z][a-z0-9+.-]*:", target):
                continue  # http:, https:, mailto:
            path, _, fragment = target.partition("#")
            file = (page.parent / path).resolve() if path else page
            if not file.exists():
                broken.append(f"{page.relative_to(ROOT)}: {target} (no such file)")
            elif fragment and file.suffix == ".md" and fragment not in anchors(file):
                broken.append(f"{page.relative_to(ROOT)}: {target} (no such heading)")
    assert broken == []


def readme_section(title: str) -> str:
    """The body of the README's "## title" section, up to the next section."""
    text = README.read_text(encoding="utf-8")
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", text, flags=re.MULTILINE | re.DOTALL)
    assert match, f'the README has a "## {title}" section'
    return match.group(1)


def packages(folder: Path) -> list[str]:
    """The Python packages directly under ``folder`` (directories with an ``__init__.py``)."""
    return sorted(
        child.name
        for child in folder.iterdir()
        if child.is_dir() and not child.name.startswith(".") and (child / "__init__.py").exists()
    )


def test_the_readme_map_names_every_top_level_package() -> None:
    """A newcomer looks a folder up on the map before opening it."""
    the_map = readme_section("Map of the code")
    assert [name for name in packages(ROOT) if f"`{name}/`" not in the_map] == []


def test_the_readme_map_names_every_package_of_the_domain() -> None:
    """The domain is where the business decisions are: each of its packages is named on the map's domain row."""
    the_map = readme_section("Map of the code")
    domain_row = next((row for row in the_map.splitlines() if row.startswith("| `domain/`")), "")
    unnamed = [
        name
        for name in packages(ROOT / "domain")
        if f"`domain/{name}/`" not in the_map and f"`{name}/`" not in domain_row
    ]
    assert unnamed == []


def test_the_readme_lists_every_page_of_the_docs_once() -> None:
    """The README's documentation list is how a reader finds a page of docs/: every page is on it, none twice."""
    listed = [
        (README.parent / target.partition("#")[0]).resolve()
        for target in LINK.findall(readme_section("Documentation"))
        if not re.match(r"[a-z][a-z0-9+.-]*:", target)
    ]
    pages = [*sorted((ROOT / "docs").glob("*.md")), ADR_INDEX]
    assert [str(page.relative_to(ROOT)) for page in pages if page not in listed] == []
    assert sorted({str(page.relative_to(ROOT)) for page in listed if listed.count(page) > 1}) == []


def test_the_adr_index_lists_every_decision() -> None:
    """A decision not in docs/adr/README.md is a decision nobody finds."""
    listed = {target.partition("#")[0] for target in links(ADR_INDEX)}
    decisions = sorted(adr.name for adr in ADR_INDEX.parent.glob("[0-9][0-9][0-9][0-9]-*.md"))
    assert [name for name in decisions if name not in listed] == []
