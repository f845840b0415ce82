// Text that embdemo did not write (a --text, its tokens, a file name) made inert in Markdown:
// no tag, comment, link, emphasis or code span of the user's can survive a renderer that passes
// raw HTML through (CommonMark's `cmark --unsafe`, most wikis). Shared by the demo's markdown
// (render/views/markdown) and the lessons' (render/kit/lesson_report). It does not wrap lines: a Markdown
// paragraph flows however long its source line is.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace embdemo {

// Outside code: '<', '>' and '&' as entities, Markdown's inline specials (\ ` * _ [ ] | ~ !)
// behind a backslash, and line breaks as spaces (a new line could start a block: a heading, an
// HTML block, a list).
std::string markdown_escape(std::string_view text);

// A code span that holds `text` exactly: delimited by more backticks than its longest run of
// them, padded by a space when it starts or ends with a backtick (or with a space at both ends,
// which CommonMark would strip), line breaks as spaces; at least `min_fence` backticks.
std::string markdown_code(std::string_view text, std::size_t min_fence = 1);

// `text` cut to about `max_chars` characters (never inside a UTF-8 character), for values of
// a summarised view; the count of characters left out is said by the caller.
std::string_view cut_for_markdown(std::string_view text, std::size_t max_chars);

}  // namespace embdemo
