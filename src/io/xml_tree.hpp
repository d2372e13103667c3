// A small element tree read with expat (Debian's libexpat1-dev), for the XML network formats
// (XMLBIF, GraphML): elements with their attributes, their own text and where they start.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace bnsl {

struct XmlElement {
  std::string name;
  std::vector<std::pair<std::string, std::string>> attributes;
  std::string text;  // character data directly inside (entities resolved)
  std::vector<std::unique_ptr<XmlElement>> children;
  std::size_t line = 0, col = 0;  // where its start tag begins (1-based; columns in bytes)

  // The attribute's value, or nullptr.
  const std::string* attribute(const std::string& key) const;
};

// Parses a whole document; InputError "FILE:LINE:COL: XML: expat's message" when it is not
// well-formed XML. Returns the root element.
std::unique_ptr<XmlElement> parse_xml(const std::string& text, const std::string& file);

// Escapes & < > " for text and attribute values.
std::string xml_escape(const std::string& s);

}  // namespace bnsl
