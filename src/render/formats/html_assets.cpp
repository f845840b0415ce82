#include "render/formats/html_assets.hpp"

namespace embdemo {
namespace {

// Present mode: the page is one screen that never scrolls. The figure's box and the step's
// panel share it (side by side on a landscape screen, the figure above on a portrait one), and
// each scrolls by itself: Next moves the figure's box to the part the step speaks of and fits
// the step's text to its panel. The text views' 80 columns set that size, so a landscape screen
// gives the text the wider share (11 to 9): 20 px at 1920 x 1080, 13-14 px at 1280 x 720, where
// the figure's zoom keeps it readable beside it. The figure is drawn at --zoom times its size (--w wide): 1.75
// makes its 12 px numbers 21 CSS px; a phone gets 1.25. Print lays everything out in one column.
constexpr std::string_view k_style = R"page(
:root { color-scheme: light; --zoom: 1.75; }
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
body { margin: 0; font-family: sans-serif; color: #111111; background: #ffffff; line-height: 1.35;
       height: 100vh; height: 100dvh; display: grid; grid-template-rows: auto minmax(0, 1fr) auto; overflow: hidden; }
header { padding: 0.3rem 1rem; border-bottom: 1px solid #cccccc; }
h1 { font-size: 1.2rem; margin: 0; }
header p { margin: 0.1rem 0 0; font-size: 0.85rem; }
header p:empty { display: none; }
main { display: grid; grid-template-columns: minmax(0, 9fr) minmax(0, 11fr); gap: 0.6rem; padding: 0.5rem 0.8rem;
       min-height: 0; }
main > * { min-width: 0; min-height: 0; }
#panel { overflow: auto; }
section.step h2, #explore h2 { font-size: 1.25rem; margin: 0 0 0.4rem; }
p.focus { margin: 0 0 0.4rem; font-weight: bold; font-size: 1.1rem; }
pre { margin: 0; font-family: monospace; font-size: 16px; line-height: 1.2; overflow-x: auto; }
figure { margin: 0; min-height: 0; }
.figure-box { overflow: auto; height: 100%; border: 1px solid #dddddd; }
.figure-box svg { display: block; max-width: none; height: auto; width: calc(var(--zoom) * var(--w)); }
.row.current rect.hl { stroke: #000000; stroke-width: 3; }
.row.current text { font-weight: bold; }
.matrix.current > text:first-child { text-decoration: underline; }
#explore { margin-top: 1rem; border-top: 1px solid #cccccc; padding-top: 0.5rem; }
#explore form { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: center; margin: 0 0 0.5rem; }
#explore input { font-family: monospace; font-size: 1rem; padding: 0.3rem; min-width: 0; flex: 1 1 12rem; max-width: 30rem; }
#explore button { font-size: 1rem; padding: 0.3rem 1rem; }
#explore-message { color: #b00020; font-weight: bold; margin: 0 0 0.5rem; }
#explore-message:empty { display: none; }
.table-box { overflow-x: auto; margin: 0 0 0.8rem; }
.table-box h3 { font-size: 1rem; margin: 0 0 0.2rem; font-family: monospace; }
table.values { border-collapse: collapse; font-family: monospace; font-size: clamp(14px, 1.1vw, 18px); }
table.values th, table.values td { padding: 0.1rem 0.5rem; text-align: right; white-space: nowrap; }
table.values thead th { color: #555555; font-weight: normal; border-bottom: 1px solid #999999; }
table.values tbody th { color: #333333; font-weight: normal; text-align: left; }
table.values td.one { font-weight: bold; outline: 1.5px solid #000000; outline-offset: -2px; }
table.values td.differs { font-weight: bold; color: #b00020; }
#explore-verdict { font-family: monospace; font-size: clamp(14px, 1.1vw, 18px); font-weight: bold; margin: 0; }
nav { display: flex; gap: 1rem; align-items: center; justify-content: center; padding: 0.4rem;
      background: #f2f2f2; border-top: 1px solid #cccccc; }
nav button { font-size: 1.1rem; padding: 0.4rem 1rem; }
#counter { font-size: 1.2rem; font-weight: bold; }
@media (orientation: portrait) {
  main { grid-template-columns: minmax(0, 1fr); grid-template-rows: minmax(0, 2fr) minmax(0, 3fr); }
}
@media (max-width: 700px) {
  :root { --zoom: 1.25; }
  header p { display: none; }
  nav { gap: 0.5rem; }
}
@media print {
  body { height: auto; display: block; overflow: visible; }
  nav, #explore form { display: none; }
  main { display: block; padding: 0; }
  #panel { overflow: visible; }
  section.step, section.step[hidden] { display: block; break-inside: avoid; margin-bottom: 1rem; }
  pre { font-size: 9pt !important; overflow: visible; }
  figure { break-inside: avoid; margin-bottom: 1rem; }
  .figure-box { overflow: visible; height: auto; border: 0; }
  .figure-box svg { width: 100%; }
}
)page";

// Keys typed into the explorer's field edit the field; they do not turn the page. Right, Down,
// PageDown and Space go on; Left, Up, PageUp and Shift+Space go back.
constexpr std::string_view k_steps_script = R"page(
(function () {
  var steps = Array.prototype.slice.call(document.querySelectorAll("section.step"));
  if (!steps.length) return;
  var rows = document.querySelectorAll("[data-e-row]");
  var matrices = document.querySelectorAll("[data-matrix]");
  var box = document.querySelector(".figure-box");
  var panel = document.getElementById("panel");
  var prev = document.getElementById("prev");
  var next = document.getElementById("next");
  var counter = document.getElementById("counter");
  var current = 0;
  // The box's scroll that puts `target` in view: centred when it fits, its start when it does not.
  function reveal(target) {
    if (!box || !target) return;
    var b = box.getBoundingClientRect(), t = target.getBoundingClientRect();
    var left = box.scrollLeft + t.left - b.left - box.clientLeft, top = box.scrollTop + t.top - b.top - box.clientTop;
    box.scrollLeft = t.width <= box.clientWidth + 1 ? left - (box.clientWidth - t.width) / 2 : left;
    box.scrollTop = t.height <= box.clientHeight + 1 ? top - (box.clientHeight - t.height) / 2 : top;
  }
  // The step's text as large as its panel lets it be (20 px down to 9 px).
  function fit(step) {
    var pre = step.querySelector("pre");
    if (!pre || !panel) return;
    for (var size = 20; size >= 9; --size) {
      pre.style.fontSize = size + "px";
      if (step.scrollHeight <= panel.clientHeight && pre.scrollWidth <= pre.clientWidth + 1) break;
    }
  }
  function show(index) {
    current = Math.max(0, Math.min(steps.length - 1, index));
    steps.forEach(function (step, i) {
      step.hidden = i !== current;
      if (i === current) step.setAttribute("aria-current", "step"); else step.removeAttribute("aria-current");
    });
    var step = steps[current];
    var wanted = (step.getAttribute("data-rows") || "").split(" ");
    var focus = null;
    Array.prototype.forEach.call(rows, function (row) {
      var on = wanted.indexOf(row.getAttribute("data-e-row")) >= 0;
      row.classList.toggle("current", on);
      if (on && !focus) focus = row;
    });
    var matrix = step.getAttribute("data-matrix");
    Array.prototype.forEach.call(matrices, function (m) {
      var on = matrix !== null && m.getAttribute("data-matrix") === matrix;
      m.classList.toggle("current", on);
      if (on && !focus) focus = m;
    });
    if (panel) panel.scrollTop = 0;
    fit(step);
    if (focus) reveal(focus); else if (box) { box.scrollTop = 0; box.scrollLeft = 0; }
    counter.textContent = "Step " + (current + 1) + " of " + steps.length;
    prev.disabled = current === 0;
    next.disabled = current === steps.length - 1;
    document.body.setAttribute("data-step", String(current + 1));
  }
  prev.addEventListener("click", function () { show(current - 1); });
  next.addEventListener("click", function () { show(current + 1); });
  document.addEventListener("keydown", function (event) {
    var target = event.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "BUTTON")) return;
    if (event.altKey || event.ctrlKey || event.metaKey) return;  // Alt+Left is the browser's Back
    var key = event.key;
    var back = key === "ArrowLeft" || key === "ArrowUp" || key === "PageUp" || (key === " " && event.shiftKey);
    var on = key === "ArrowRight" || key === "ArrowDown" || key === "PageDown" || (key === " " && !event.shiftKey);
    if (on) { show(current + 1); event.preventDefault(); }
    if (back) { show(current - 1); event.preventDefault(); }
    if (key === "Home") { show(0); event.preventDefault(); }
    if (key === "End") { show(steps.length - 1); event.preventDefault(); }
  });
  window.addEventListener("resize", function () { show(current); });
  show(0);
})();
)page";

// Numbers are spelled as embdemo's JSON spells them (render/kit/number_format's shortest_round_trip,
// fmt 9's "{}": fixed notation for decimal exponents -4 to 15, else 1.5e-05) and the verdict's
// max abs diff as fmt spells a double, so the page and `--format json` can be compared as text.
// The product is core/kernels/embedding's in-order `matmul`: from +0.0, acc = fround(acc +
// fround(E[k][j] * x[k])) for k = 0 .. V-1. PyTorch's `@` (and embdemo's X @ E) go through the
// BLAS instead; for finite weights both are exact, since every term but one is 0 * E[k][j].
constexpr std::string_view k_explorer_script = R"page(
(function () {
  var root = document.getElementById("explore");
  if (!root || !root.getAttribute("data-weights")) return;
  var V = Number(root.getAttribute("data-vocab"));
  var d = Number(root.getAttribute("data-dim"));
  var maxIds = Number(root.getAttribute("data-max-ids"));
  // With --text, the tokens of the run's ids, spelled as the text view spells them.
  var tokens = root.hasAttribute("data-tokens") ? JSON.parse(root.getAttribute("data-tokens")) : {};
  function named(id) {
    return Object.prototype.hasOwnProperty.call(tokens, id) ? id + " \"" + tokens[id] + "\"" : String(id);
  }
  // The rows of E the page carries, ascending (all of them unless data-rows names some), and
  // where each one's values start; for a partial E, per column the first inf or nan of the rows
  // left out (the only values of theirs that can change the product's sum).
  var rowOf = [], place = {};
  if (root.hasAttribute("data-rows")) {
    rowOf = root.getAttribute("data-rows").split(" ").map(Number);
  } else {
    for (var k0 = 0; k0 < V; ++k0) rowOf.push(k0);
  }
  rowOf.forEach(function (k, r) { place[k] = r; });
  var R = rowOf.length, outside = [];
  (root.getAttribute("data-outside") || "").split(";").forEach(function (item) {
    if (!item) return;
    var parts = item.split(" ");
    outside[Number(parts[0])] = { k: Number(parts[1]), bits: parseInt(parts[2], 16) >>> 0 };
  });
  var raw = atob(root.getAttribute("data-weights"));
  var bytes = new Uint8Array(raw.length);
  for (var b = 0; b < raw.length; ++b) bytes[b] = raw.charCodeAt(b);
  var view = new DataView(bytes.buffer);
  // E's bits as well as its values: a NaN read as a number may lose its payload or be quieted.
  var E = new Float32Array(R * d), Ebits = new Uint32Array(R * d);
  for (var e = 0; e < R * d; ++e) {
    E[e] = view.getFloat32(4 * e, true);
    Ebits[e] = view.getUint32(4 * e, true);
  }
  var field = document.getElementById("explore-ids");
  var message = document.getElementById("explore-message");
  var tables = document.getElementById("explore-tables");
  var verdict = document.getElementById("explore-verdict");

  function bitsOf(x) {
    var cell = new DataView(new ArrayBuffer(4));
    cell.setFloat32(0, x, true);
    return cell.getUint32(0, true);
  }
  function hex(bits) { return ("0000000" + bits.toString(16)).slice(-8); }
  function thousands(n) { return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ","); }
  // Digits and decimal exponent of toExponential's text, laid out as fmt 9 lays them out.
  function layout(text) {
    var sign = text.charAt(0) === "-" ? "-" : "";
    var parts = text.slice(sign.length).split("e");
    var digits = parts[0].replace(".", "");
    var exp = Number(parts[1]);
    if (exp < -4 || exp >= 16) {
      var mag = Math.abs(exp);
      return sign + digits.charAt(0) + (digits.length > 1 ? "." + digits.slice(1) : "") + "e" +
             (exp < 0 ? "-" : "+") + (mag < 10 ? "0" : "") + mag;
    }
    if (exp < 0) return sign + "0." + new Array(-exp).join("0") + digits;
    if (digits.length <= exp + 1) return sign + digits + new Array(exp + 2 - digits.length).join("0");
    return sign + digits.slice(0, exp + 1) + "." + digits.slice(exp + 1);
  }
  function special(x) {
    if (x !== x) return "nan";
    if (x === Infinity) return "inf";
    if (x === -Infinity) return "-inf";
    if (x === 0) return 1 / x < 0 ? "-0" : "0";
    return "";
  }
  // The shortest decimal that reads back as this float32 (through a double, as Python reads JSON).
  function spellFloat(x) {
    var text = special(x);
    if (text) return text;
    for (var p = 0; p < 9; ++p) {
      text = x.toExponential(p);
      if (Math.fround(Number(text)) === x) break;
    }
    return layout(text);
  }
  function spellDouble(x) { return special(x) || layout(x.toExponential()); }

  // The CLI's --ids rules and messages (core/ids.cpp's parse_id_batch): comma-separated decimal
  // ids, rows of them separated by ';' for a batch, every row as long as the first; no sign, no
  // hex, no leading zero. Out-of-range ids are named by their place, as the CLI names them.
  var ALLOWED = "(allowed: comma-separated non-negative decimal token ids, e.g. 2,3,1, or rows of them " +
                "separated by ';' for a batch)";
  function trimBlanks(s) { return s.replace(/^[ \t]+|[ \t]+$/g, ""); }
  // As the CLI quotes a value: control characters escaped, cut after `most` characters.
  function quote(s, most) {
    var escaped = s.slice(0, most + 1).replace(/[\u0000-\u001f\u007f]/g, function (c) {
      return { "\n": "\\n", "\t": "\\t", "\r": "\\r" }[c] || "\\x" + ("0" + c.charCodeAt(0).toString(16)).slice(-2);
    });
    return "\"" + (escaped.length > most ? escaped.slice(0, most) + "..." : escaped) + "\"";
  }
  function shapeProblem(t) {
    if (t === "") return "is empty";
    if (t.charAt(0) === "-" || t.charAt(0) === "+") return "has a sign";
    if (/^0[xX]/.test(t)) return "is hexadecimal";
    if (!/^[0-9]+$/.test(t)) return "is not a decimal integer";
    if (t.length > 1 && t.charAt(0) === "0") return "has a leading zero (refused because other tools read it as octal)";
    if (t.length > 20 || (t.length === 20 && t > "18446744073709551615")) return "is larger than 18446744073709551615";
    return "";
  }
  function parseRow(text) {
    var items = text.split(","), ids = [], texts = [];
    for (var i = 0; i < items.length; ++i) {
      var item = trimBlanks(items[i]), problem = shapeProblem(item);
      if (problem) return { error: "item " + (i + 1) + (item ? " " + quote(item, 30) : "") + " " + problem };
      ids.push(item.length > 15 ? Infinity : Number(item));  // past 10^15 no vocabulary holds it
      texts.push(item);
    }
    return { ids: ids, texts: texts };
  }
  function parseIds(text) {
    function fail(problem) { return { error: "--ids " + quote(text, 60) + ": " + problem + " " + ALLOWED }; }
    if (trimBlanks(text) === "") return fail("is empty");
    var batched = text.indexOf(";") >= 0, rows = text.split(";"), ids = [], texts = [], seq = 0;
    for (var r = 0; r < rows.length; ++r) {
      if (trimBlanks(rows[r]) === "") {
        return fail("row " + r + " is empty" + (r > 0 && r === rows.length - 1 ? " (the ids end with ';')" : ""));
      }
      var row = parseRow(rows[r]);
      if (row.error) return fail((batched ? "row " + r + " " : "") + row.error);
      if (r === 0) {
        seq = row.ids.length;
      } else if (row.ids.length !== seq) {
        return fail("row " + r + " has " + row.ids.length + (row.ids.length === 1 ? " id" : " ids") + " but row 0 has " +
                    seq + " (every row of a batch needs the same length)");
      }
      ids = ids.concat(row.ids);
      texts = texts.concat(row.texts);
    }
    if (ids.length > maxIds) {
      return { error: ids.length + " ids are more than the " + maxIds + " this page shows at once" };
    }
    var where = function (i) { return batched ? Math.floor(i / seq) + ", " + (i % seq) : String(i); };
    for (var i = 0; i < ids.length; ++i) {
      if (ids[i] >= V) {
        return { error: "ids[" + where(i) + "] = " + texts[i] +
                 " is out of range for a vocab of " + thousands(V) + " (allowed: ids 0 to " + thousands(V - 1) + ")" };
      }
    }
    for (var m = 0; m < ids.length; ++m) {
      if (!Object.prototype.hasOwnProperty.call(place, ids[m])) {
        return { error: "ids[" + where(m) + "] = " + texts[m] + ": row " + texts[m] + " of E is not in this page, " +
                 "which carries only the rows the text view shows (E's first and last rows and this run's ids); " +
                 "embdemo --ids " + texts[m] + " looks up any row" };
      }
    }
    return { ids: ids, place: where };
  }

  // The columns shown of `count`: all up to 16, else three at each end and the `wanted` ones,
  // with null where columns are left out.
  function columns(count, wanted) {
    var keep = [];
    for (var c = 0; c < count; ++c) {
      if (count <= 16 || c < 3 || c >= count - 3 || wanted.indexOf(c) >= 0) keep.push(c);
    }
    var shown = [];
    keep.forEach(function (c, i) {
      if (i > 0 && c !== keep[i - 1] + 1) shown.push(null);
      shown.push(c);
    });
    return shown;
  }
  function element(tag, text, className) {
    var node = document.createElement(tag);
    if (text !== undefined) node.textContent = text;
    if (className) node.className = className;
    return node;
  }
  // One table: title, column labels, and a row per id with cell(i, c) -> {value, className}.
  function table(id, title, cols, labels, cell) {
    var box = element("div", undefined, "table-box");
    box.appendChild(element("h3", title));
    var t = element("table", undefined, "values");
    t.id = id;
    var head = element("tr");
    head.appendChild(element("th", ""));
    cols.forEach(function (c) { head.appendChild(element("th", c === null ? "..." : String(c))); });
    t.appendChild(element("thead")).appendChild(head);
    var body = t.appendChild(element("tbody"));
    labels.forEach(function (label, i) {
      var tr = body.appendChild(element("tr"));
      tr.appendChild(element("th", label));
      cols.forEach(function (c) {
        if (c === null) { tr.appendChild(element("td", "...")); return; }
        var value = cell(i, c);
        var td = tr.appendChild(element("td", value.text, value.className));
        td.setAttribute("data-col", String(c));
        if (value.bits !== undefined) td.setAttribute("data-bits", hex(value.bits));
      });
    });
    box.appendChild(t);
    return box;
  }

  function update() {
    var parsed = parseIds(field.value);
    tables.textContent = "";
    verdict.textContent = "";
    if (parsed.error) {
      message.textContent = parsed.error;
      field.setAttribute("aria-invalid", "true");
      return;
    }
    message.textContent = "";
    field.removeAttribute("aria-invalid");
    var ids = parsed.ids, n = ids.length;
    var lookup = new Float32Array(n * d), product = new Float32Array(n * d);
    var lookupBits = new Uint32Array(n * d), productBits = new Uint32Array(n * d);
    // A NaN is carried as bits, as the CPU (x86 SSE) makes it: a NaN operand comes out quieted,
    // 0 * inf is the default NaN 0xffc00000, and a sum keeps the NaN it met first.
    function nanOf(bits, one) {
      if ((bits & 0x7fffffff) > 0x7f800000) return (bits | 0x00400000) >>> 0;
      return !one && (bits & 0x7fffffff) === 0x7f800000 ? 0xffc00000 : -1;
    }
    for (var i = 0; i < n; ++i) {
      var at = place[ids[i]];
      for (var j = 0; j < d; ++j) {
        lookup[i * d + j] = E[at * d + j];
        lookupBits[i * d + j] = Ebits[at * d + j];  // a copy keeps every bit, NaN payloads too
        // Row i of one_hot(ids) times column j of E, every term and every sum rounded, over E's
        // rows in order; a row left out of the page adds a zero unless it holds the column's inf or nan.
        var acc = 0, accNaN = -1, out = outside[j];
        for (var r = 0; r <= R && accNaN < 0; ++r) {
          var k = r < R ? rowOf[r] : Infinity;
          if (out && out.k < k) { accNaN = nanOf(out.bits, false); break; }
          if (r === R) break;
          var one = k === ids[i];
          accNaN = nanOf(Ebits[r * d + j], one);
          if (accNaN < 0) acc = Math.fround(acc + Math.fround(E[r * d + j] * (one ? 1 : 0)));
        }
        product[i * d + j] = acc;
        productBits[i * d + j] = accNaN >= 0 ? accNaN : bitsOf(acc);
        if (accNaN >= 0) product[i * d + j] = NaN;
      }
    }
    var differing = 0, maxDiff = 0;
    var differs = new Uint8Array(n * d);
    for (var v = 0; v < n * d; ++v) {
      if (lookupBits[v] === productBits[v]) continue;
      differs[v] = 1;
      ++differing;
      var diff = Math.abs(lookup[v] - product[v]);
      if (diff !== diff) maxDiff = NaN;
      else if (maxDiff === maxDiff && diff > maxDiff) maxDiff = diff;
    }
    var positions = ids.map(function (id, i) { return "ids[" + parsed.place(i) + "] = " + named(id); });
    var dims = columns(d, []);
    function float(values, bits) {
      return function (i, c) {
        var x = values[i * d + c];
        return { text: spellFloat(x), bits: bits[i * d + c], className: differs[i * d + c] ? "differs" : "" };
      };
    }
    tables.appendChild(table("explore-onehot", "one_hot(ids)   " + n + " x " + thousands(V), columns(V, ids), positions,
      function (i, c) { return { text: c === ids[i] ? "1" : "0", className: c === ids[i] ? "one" : "" }; }));
    tables.appendChild(table("explore-lookup", "E[ids], the lookup   " + n + " x " + d, dims,
      ids.map(function (id) { return "E[" + id + "]"; }), float(lookup, lookupBits)));
    tables.appendChild(table("explore-product", "one_hot(ids) @ E, in order   " + n + " x " + d, dims,
      ids.map(function (id, i) { return "row " + i; }), float(product, productBits)));
    var total = n * d;
    if (differing === 0) {
      var all = total === 1 ? "the only value" : total === 2 ? "both values" : "all " + thousands(total) + " values";
      verdict.textContent = "verdict: IDENTICAL -- " + all + " " + (total === 1 ? "agrees" : "agree") +
                            " bit for bit, max abs diff 0";
    } else {
      var some = total === 1 ? "the only value differs"
               : differing === total ? (total === 2 ? "both values" : "all " + thousands(total) + " values") + " differ"
               : thousands(differing) + " of " + thousands(total) + " values " + (differing === 1 ? "differs" : "differ");
      verdict.textContent = "verdict: DIFFERENT -- " + some + ", max abs diff " + spellDouble(maxDiff);
    }
  }
  field.addEventListener("input", update);
  document.getElementById("explore-form").addEventListener("submit", function (event) {
    event.preventDefault();
    update();
  });
  update();
})();
)page";

}  // namespace

std::string_view html_style() { return k_style; }
std::string_view html_steps_script() { return k_steps_script; }
std::string_view html_explorer_script() { return k_explorer_script; }

}  // namespace embdemo
