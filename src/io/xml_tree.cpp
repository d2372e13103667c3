// The XML element tree of io/xml_tree.hpp, built from expat's callbacks. Expat checks
// well-formedness and guards against entity expansion attacks; external entities are never
// loaded (no handler is set), so reading a file reads only that file.
#include "io/xml_tree.hpp"

#include <expat.h>

#include "bnsl/error.hpp"

namespace bnsl {
namespace {

// Elements nested deeper are refused: the tree is freed (and read) recursively, and a file of
// a million nested elements would exhaust the stack. The network formats nest four deep.
constexpr std::size_t kMaxDepth = 100;

struct Builder {
  XML_Parser parser = nullptr;
  std::unique_ptr<XmlElement> root;
  std::vector<XmlElement*> open;
  std::size_t deep_line = 0, deep_col = 0;  // where an element nested too deep starts
};

void XMLCALL on_start(void* user, const XML_Char* name, const XML_Char** attrs) {
  auto* b = static_cast<Builder*>(user);
  if (b->open.size() == kMaxDepth) {
    b->deep_line = XML_GetCurrentLineNumber(b->parser);
    b->deep_col = XML_GetCurrentColumnNumber(b->parser) + 1;
    XML_StopParser(b->parser, XML_FALSE);
    return;
  }
  auto e = std::make_unique<XmlElement>();
  e->name = name;
  for (std::size_t i = 0; attrs[i]; i += 2) e->attributes.emplace_back(attrs[i], attrs[i + 1]);
  e->line = XML_GetCurrentLineNumber(b->parser);
  e->col = XML_GetCurrentColumnNumber(b->parser) + 1;
  XmlElement* raw = e.get();
  if (b->open.empty())
    b->root = std::move(e);
  else
    b->open.back()->children.push_back(std::move(e));
  b->open.push_back(raw);
}

void XMLCALL on_end(void* user, const XML_Char*) {
  static_cast<Builder*>(user)->open.pop_back();
}

void XMLCALL on_text(void* user, const XML_Char* s, int len) {
  auto* b = static_cast<Builder*>(user);
  if (!b->open.empty()) b->open.back()->text.append(s, static_cast<std::size_t>(len));
}

}  // namespace

const std::string* XmlElement::attribute(const std::string& key) const {
  for (const auto& [k, v] : attributes)
    if (k == key) return &v;
  return nullptr;
}

std::unique_ptr<XmlElement> parse_xml(const std::string& text, const std::string& file) {
  Builder b;
  b.parser = XML_ParserCreate("UTF-8");
  if (!b.parser) throw std::bad_alloc();
  XML_SetUserData(b.parser, &b);
  XML_SetElementHandler(b.parser, on_start, on_end);
  XML_SetCharacterDataHandler(b.parser, on_text);
  const bool ok =
      XML_Parse(b.parser, text.data(), static_cast<int>(text.size()), 1) == XML_STATUS_OK;
  if (b.deep_line > 0) {
    XML_ParserFree(b.parser);
    throw InputError(file, b.deep_line, b.deep_col,
                     "XML: elements nested more than " + std::to_string(kMaxDepth) + " deep");
  }
  if (!ok || !b.root) {
    const std::size_t line = XML_GetCurrentLineNumber(b.parser);
    const std::size_t col = XML_GetCurrentColumnNumber(b.parser) + 1;
    const std::string what = ok ? "no element" : XML_ErrorString(XML_GetErrorCode(b.parser));
    XML_ParserFree(b.parser);
    throw InputError(file, line, col, "XML: " + what);
  }
  XML_ParserFree(b.parser);
  return std::move(b.root);
}

std::string xml_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

}  // namespace bnsl
