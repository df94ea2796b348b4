"""The tag tree: elements only, preorder slices, XPaths identical to lxml's, no recursion."""

import gzip
from pathlib import Path

import lxml.html
import pytest
from lxml import etree

from journals.mdr.tagtree import IGNORED_TAGS, OPAQUE_TAGS, TagTree
from journals.pages.parsed import parse_html

DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "mdr"
PAGE = """<html><head><title>t</title><style>p {}</style></head><body>
<!-- a comment --><?php echo 1; ?><script>var x;</script>
<ul><li><a href="/a">A</a> one</li><li><a href="/b">B</a> two<script>no</script></li></ul>
<fb:like>x</fb:like><p>1</p><p>2</p></body></html>"""


def test_elements_only_in_preorder():
    tree = TagTree.build(parse_html(PAGE))
    assert [tree.tag(node) for node in range(len(tree.elements))] == [
        "html", "head", "title", "body", "ul", "li", "a", "li", "a", "fb:like", "p", "p",
    ]
    assert len(tree.tokens) == len(tree.elements)
    assert tree.heights[0] == 5
    assert tree.children[3] == [4, 9, 10, 11]


def test_subtree_slices_and_text():
    tree = TagTree.build(parse_html(PAGE))
    ul = 4
    assert tree.ends[ul] == 9
    assert tree.tokens[5 : tree.ends[5]] == tree.tokens[7 : tree.ends[7]]  # li a == li a
    assert tree.text(ul) == "A one B two"


def test_xpaths_are_lxml_getpath():
    root = parse_html(PAGE)
    tree = TagTree.build(root)
    expected = [root.getroottree().getpath(element) for element in tree.elements]
    assert [tree.xpath(node) for node in range(len(tree.elements))] == expected
    assert tree.xpath(10) == "/html/body/p[1]"


@pytest.mark.parametrize("name", ["htmlpage0.html", "htmlpage1.html"])
def test_xpaths_match_on_real_pages(name):
    root = parse_html((DATA / "scrapinghub-mdr" / name).read_bytes())
    tree = TagTree.build(root)
    getpath = root.getroottree().getpath
    assert all(tree.xpath(node) == getpath(element) for node, element in enumerate(tree.elements))


@pytest.mark.parametrize("html", ["", "   ", b"", "<!-- only a comment -->"])
def test_empty_documents_parse_to_none(html):
    assert parse_html(html) is None


def test_str_with_encoding_declaration():
    root = parse_html('<?xml version="1.0" encoding="utf-8"?><html><body><p>é</p></body></html>')
    assert root.xpath("string(//p)") == "é"


def test_deep_tree_builds_without_recursion():
    root = lxml.html.document_fromstring("<html><body></body></html>")
    node = root.find("body")
    for _ in range(10_000):
        node = etree.SubElement(node, "div")
    tree = TagTree.build(root)
    assert tree.heights[0] == 10_002
    assert tree.xpath(len(tree.elements) - 1).count("/div") == 10_000


def test_str_declaring_an_encoding_but_empty_is_no_document():
    # Found by tests/properties: the UTF-8 retry of a str with an encoding declaration raised ParserError.
    assert parse_html('<?xml0 encoding=""') is None


def test_text_keeps_text_after_comments_and_scripts_and_tails_at_the_end():
    root = parse_html("<html><body><p>a<!-- x -->b<script>s</script>c<span>d</span>e</p>f</body></html>")
    tree = TagTree.build(root)
    p = next(node for node in range(len(tree.elements)) if tree.tag(node) == "p")
    assert tree.text(p) == "a b c d e"
    assert tree.text(0) == "a b c d e f"
    assert tree.text_bound(p) >= len(tree.text(p))


def test_svg_and_math_are_leaves():
    tree = TagTree.build(parse_html("<html><body><svg><g><path/></g></svg><math><mi>x</mi></math></body></html>"))
    assert [tree.tag(node) for node in range(len(tree.elements))] == ["html", "body", "svg", "math"]
    assert tree.heights[1] == 2


def test_root_path_counts_the_second_root_libxml2_makes_of_text_after_html():
    root = parse_html("<html><body><p>x</p><p>y</p></body></html>0")
    tree = TagTree.build(root)
    getpath = root.getroottree().getpath
    assert tree.xpath(0) == getpath(root) == "/html[1]"
    assert [tree.xpath(node) for node in range(len(tree.elements))] == [getpath(e) for e in tree.elements]


def test_tree_built_without_elements_reads_the_same():
    root = parse_html(PAGE)
    full, bare = TagTree.build(root), TagTree.build(root, keep_elements=False)
    assert bare.elements == []
    nodes = range(len(full.elements))
    for read in (TagTree.tag, TagTree.xpath, TagTree.text):
        assert [read(bare, node) for node in nodes] == [read(full, node) for node in nodes]


def _reference_tree(root):
    """The tag tree the straightforward way, to pin the one-walk build to: lxml's ``iter()``, each element's parent
    found by identity, text pieces laid out by a stack of open nodes, subtree ends and heights from a backward pass.
    """
    tags, parents, pieces, firsts, lasts = [root.tag], [-1], [], [0], [0]
    if root.text and not root.text.isspace():
        pieces.append(root.text)
    index, open_nodes, open_tails = {root: 0}, [0], [None]

    def add(text):
        if text and not text.isspace():
            pieces.append(text)

    for element in list(root.iter())[1:]:
        parent = index.get(element.getparent())
        if parent is None:
            continue
        while open_nodes[-1] != parent:
            lasts[open_nodes.pop()] = len(pieces)
            add(open_tails.pop())
        if not isinstance(element.tag, str) or element.tag in IGNORED_TAGS:
            add(element.tail)
            continue
        if element.tag not in OPAQUE_TAGS:
            index[element] = len(parents)
        open_nodes.append(len(parents))
        open_tails.append(element.tail)
        tags.append(element.tag)
        parents.append(parent)
        firsts.append(len(pieces))
        lasts.append(0)
        add(element.text)
    while open_nodes:
        lasts[open_nodes.pop()] = len(pieces)
        if open_nodes:
            add(open_tails.pop())
    size = len(parents)
    children, sizes, heights = [[] for _ in range(size)], [1] * size, [1] * size
    for node in range(1, size):
        children[parents[node]].append(node)
    for node in range(size - 1, 0, -1):
        sizes[parents[node]] += sizes[node]
        heights[parents[node]] = max(heights[parents[node]], heights[node] + 1)
    ends = [node + subtree for node, subtree in enumerate(sizes)]
    return tags, parents, children, ends, heights, pieces, firsts, lasts


TRICKY = [
    PAGE,
    "<html><body><p>a<!-- x -->b<script>s<b>q</b></script>c<span>d</span>e</p>f</body></html>",
    "<html><body><svg><g>g<path/>t</g>u</svg>v<math><mi>x</mi>y</math>z<noscript><p>n</p>m</noscript>o</body></html>",
    "<html><body><template><li>t</li></template><ul><li>1<li>2<li>3</ul>tail<style>x</style></body></html>0",
    "<html><body>" + "<div>a<p>b</p>c" * 50 + "</div>" * 50 + "d</body></html>",
]


@pytest.mark.parametrize("html", TRICKY)
def test_walk_is_the_reference_tree_on_tricky_pages(html):
    root = parse_html(html)
    tree = TagTree.build(root)
    expected = _reference_tree(root)
    found = (
        [tree.tag(node) for node in range(len(tree.tokens))], tree.parents, tree.children, tree.ends, tree.heights,
        tree._pieces, tree._firsts, tree._lasts,
    )
    assert found == expected


def test_walk_is_the_reference_tree_with_entities_and_pis():
    root = parse_html("<html><body><p>a<b>b</b>c</p></body></html>")
    p = root.find(".//p")
    for made, tail in ((etree.Entity("amp"), "e"), (etree.Comment("c"), "f"), (etree.ProcessingInstruction("x"), "g")):
        made.tail = tail
        p.insert(1, made)
    tree = TagTree.build(root)
    assert tree.text(0) == "a b c g f e"
    assert (tree.parents, tree.ends, tree._pieces, tree._firsts, tree._lasts) == tuple(
        _reference_tree(root)[i] for i in (1, 3, 5, 6, 7)
    )


@pytest.mark.parametrize("name", ["nexteval-mdr/html/1.html.gz", "scrapinghub-mdr/htmlpage0.html", "pydepta-mdr/resources/3.html"])
def test_walk_is_the_reference_tree_on_labelled_pages(name):
    html = (DATA / name).read_bytes()
    root = parse_html(gzip.decompress(html) if name.endswith(".gz") else html)
    tree = TagTree.build(root, keep_elements=False)
    found = (
        [tree.tag(node) for node in range(len(tree.tokens))], tree.parents, tree.children, tree.ends, tree.heights,
        tree._pieces, tree._firsts, tree._lasts,
    )
    assert found == _reference_tree(root)


def test_more_tag_names_than_one_byte_holds_keep_every_tag_apart():
    """Tokens are one character per tag name; past 256 names they are wider, and still one name each."""
    names = [f"x-tag{number}" for number in range(300)]
    items = "".join(f"<{name}><b>{number}</b></{name}>" for number, name in enumerate(names))
    root = parse_html(f"<html><body><div>{items}</div><ul><li>a</li><li>b</li><li>c</li></ul></body></html>")
    tree = TagTree.build(root)
    assert [tree.tag(node) for node in range(len(tree.tokens))] == [element.tag for element in tree.elements]
    assert len(set(tree.tokens)) == len({element.tag for element in tree.elements}) == 300 + 6
    assert tree.tokens[3 : tree.ends[3]] != tree.tokens[5 : tree.ends[5]]  # x-tag0 b, x-tag1 b
    getpath = root.getroottree().getpath
    assert [tree.xpath(node) for node in range(len(tree.tokens))] == list(map(getpath, tree.elements))
    assert tree.within("li").count(1) == 3


def test_branching_nodes_are_those_with_grandchildren_each_after_its_descendants():
    """A child holding only a comment or a script has no children in the tree: its parent is no FindDRs node."""
    html = "<html><body><div><p><!-- c --></p><p><script>x</script></p></div><ul><li><b>1</b></li></ul></body></html>"
    tree = TagTree.build(parse_html(html))
    with_grandchildren = [node for node in range(len(tree.tokens)) if tree.heights[node] >= 3]
    assert sorted(tree.branching) == with_grandchildren == [0, 1, 5]  # html, body, ul (not div)
    assert all(tree.branching.index(tree.parents[node]) > tree.branching.index(node) for node in tree.branching if node)
    for page in (PAGE, (DATA / "scrapinghub-mdr" / "htmlpage0.html").read_bytes()):
        tree = TagTree.build(parse_html(page))
        assert sorted(tree.branching) == [node for node in range(len(tree.tokens)) if tree.heights[node] >= 3]


MIXED = """<html><body><div id="a"><p>one <b>two</b><!-- c -->three</p><p><script>s()</script>four</p></div>
<div id="b"><p>x<svg><text>drawn</text></svg>y</p><p><style> </style><svg></svg>z<math>m</math></p></div>
<table><tr><th>Name</th></tr><tr><td><a href="/j">J<i>1</i></a><noscript><a href="/n">N</a></noscript></td></tr></table>
</body></html>"""


@pytest.mark.parametrize("name", ["mixed", "htmlpage0.html", "htmlpage1.html"])
def test_a_node_that_reads_all_text_has_its_elements_itertext(name):
    """Where a node reads all its element's text, its text is ``itertext()``'s and its ``a`` nodes are ``iter("a")``'s;
    scripts with text, and opaque elements with children, inside a node make it read less."""
    root = parse_html(MIXED if name == "mixed" else (DATA / "scrapinghub-mdr" / name).read_bytes())
    tree = TagTree.build(root)
    node_of = {element: node for node, element in enumerate(tree.elements)}
    reading_all = 0
    for node, element in enumerate(tree.elements):
        ancestor = next(element.iterancestors("tr"), None)
        assert tree.ancestor("tr", node) == (node_of[ancestor] if ancestor is not None else -1)
        cells = [node_of[cell] for cell in element.iterchildren("td", "th")]
        assert tree.children_of(node, ("td", "th")) == cells
        if tree.reads_all_text(node):
            reading_all += 1
            assert tree.text(node) == " ".join(" ".join(element.itertext()).split())
            assert tree.nodes_of("a", node) == [node_of[a] for a in element.iter("a")]
    if name == "mixed":  # a script, a drawing's text, a noscript's link; not a blank style, an empty drawing
        unread = [tree.tag(node) for node in range(len(tree.elements)) if not tree.reads_all_text(node)]
        assert unread == ["html", "body", "div", "p", "div", "p", "svg", "table", "tr", "td"]
    else:
        assert reading_all > len(tree.elements) / 2
