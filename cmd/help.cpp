// The help texts (help.hpp): HelpFormatter, `bnsl help`, and the nearest command's name.
#include "help.hpp"

#include <algorithm>
#include <iostream>
#include <set>
#include <sstream>
#include <string_view>
#include <vector>

#include "bnsl/error.hpp"
#include "bnsl/tunables.hpp"
#include "options.hpp"
#include "util/nearest.hpp"

namespace bnsl::cli {
namespace {

// Width of the option column; the description column holds the rest of kHelpWidth less two,
// which `bnsl --help-all` indents its commands' options by.
constexpr std::size_t kNameColumn = 30;
constexpr std::size_t kIndent = 2;

// `text` with each paragraph (line) broken at spaces into lines of at most `width` columns (a
// longer word stands alone on its line).
std::string wrap(const std::string& text, std::size_t width) {
  std::string out, paragraph;
  std::istringstream paragraphs(text);
  while (std::getline(paragraphs, paragraph)) {
    if (!out.empty()) out += '\n';
    std::istringstream words(paragraph);
    std::string word;
    std::size_t column = 0;
    while (words >> word) {
      if (column > 0 && column + 1 + word.size() > width) {
        out += '\n';
        column = 0;
      } else if (column > 0) {
        out += ' ';
        ++column;
      }
      out += word;
      column += word.size();
    }
  }
  return out;
}

// "--epsilon, --factor": the names of a set of options, sorted (the set is by address).
std::string names(const std::set<CLI::Option*>& options) {
  std::vector<std::string> sorted;
  for (const CLI::Option* o : options) sorted.push_back(o->get_name());
  std::sort(sorted.begin(), sorted.end());
  std::string out;
  for (const std::string& name : sorted) out += (out.empty() ? "" : ", ") + name;
  return out;
}

// The tunables of --set (bnsl/tunables.hpp), one per entry: its name, default and range, then
// why, indented; for --help-all of a command that takes --set.
std::string tunables_text() {
  std::string out = "\nTunables (--set NAME=VALUE; the defaults are those bnsl is tuned with):\n";
  for (const TunableInfo& t : tunable_table()) {
    out += "  " + std::string(t.name) + " = " + number_text(t.value) + "  [" + number_text(t.lo) +
           ", " + number_text(t.hi) + "]" + (t.integer ? ", whole" : "") + "\n";
    std::istringstream lines(wrap(std::string(t.why), kHelpWidth - 6));
    for (std::string line; std::getline(lines, line);) out += "      " + line + "\n";
  }
  return out;
}

// Whether `app` or one of its commands takes --set.
bool takes_set(const CLI::App* app) {
  if (app->get_option_no_throw("--set") != nullptr) return true;
  for (const CLI::App* sub : app->get_subcommands({}))
    if (sub->get_option_no_throw("--set") != nullptr) return true;
  return false;
}

class HelpFormatter : public CLI::Formatter {
 public:
  HelpFormatter() { column_width(kNameColumn); }

  std::string make_help(const CLI::App* app, std::string name,
                        CLI::AppFormatMode mode) const override {
    if (mode == CLI::AppFormatMode::Sub) return make_expanded(app);
    const bool all = mode == CLI::AppFormatMode::All;
    std::string footer;
    if (!all && !options_of(app, kAdvancedGroup, false).empty())
      footer = "\nAdvanced options and tunables: " + name + " --help-all\n";
    if (all && takes_set(app)) footer = tunables_text();
    return make_description(app) + make_usage(app, name) + make_positionals(app) +
           make_ordered_groups(app, all, false) + make_subcommands(app, mode) + footer;
  }

  // A command in `bnsl --help-all`: its name, then its help indented.
  std::string make_expanded(const CLI::App* sub) const override {
    std::string text =
        make_description(sub) + make_positionals(sub) + make_ordered_groups(sub, true, true);
    std::string out = sub->get_display_name(true);
    for (std::size_t start = 0; start < text.size();) {
      std::size_t end = text.find('\n', start);
      if (end == std::string::npos) end = text.size();
      if (end > start) out += "\n" + std::string(kIndent, ' ') + text.substr(start, end - start);
      start = end + 1;
    }
    return out + "\n";
  }

  std::string make_description(const CLI::App* app) const override {
    const std::string text = app->get_description();
    return text.empty() ? text : wrap(text, kHelpWidth - kIndent) + "\n";
  }

  std::string make_subcommand(const CLI::App* sub) const override {
    std::stringstream out;
    CLI::detail::format_help(out, sub->get_name(),
                             wrap(sub->get_description(), description_width()), column_width_);
    return out.str();
  }

  // The value's name only ("SECONDS", not CLI11's "FLOAT:FLOAT in [0 - 1e+09]": the part
  // before the first ':' is the type name, the rest its checks' texts); the defaults and the
  // options excluded go to the description.
  std::string make_option_opts(const CLI::Option* opt) const override {
    if (opt->get_type_size() == 0) return opt->get_required() ? " (required)" : "";
    std::string type = opt->get_type_name();
    type = type.substr(0, type.find(':'));
    std::string out = type.empty() ? "" : " " + type;
    if (opt->get_expected_max() >= CLI::detail::expected_max_vector_size) out += " ...";
    if (opt->get_required()) out += " (required)";
    return out;
  }

  std::string make_option_desc(const CLI::Option* opt) const override {
    std::string text = opt->get_description();
    if (!opt->get_default_str().empty()) text += " [default: " + opt->get_default_str() + "]";
    if (!opt->get_excludes().empty()) text += " [not with " + names(opt->get_excludes()) + "]";
    if (!opt->get_needs().empty()) text += " [needs " + names(opt->get_needs()) + "]";
    return wrap(text, description_width());
  }

 private:
  static std::size_t description_width() { return kHelpWidth - kIndent - kNameColumn; }

  // The options of `group` (help flags aside in a command of --help-all), as listed.
  static std::vector<const CLI::Option*> options_of(const CLI::App* app, const std::string& group,
                                                    bool expanded) {
    return app->get_options([&](const CLI::Option* o) {
      return o->get_group() == group && o->nonpositional() &&
             (!expanded || (o != app->get_help_ptr() && o != app->get_help_all_ptr()));
    });
  }

  // CLI11's unnamed "Options" and any other group first, then kGroups in order (the advanced
  // one with `all` only).
  std::string make_ordered_groups(const CLI::App* app, bool all, bool expanded) const {
    std::vector<std::string> order;
    for (const std::string& g : app->get_groups())
      if (std::find(kGroups.begin(), kGroups.end(), g) == kGroups.end()) order.push_back(g);
    for (const char* g : kGroups)
      if (all || g != std::string(kAdvancedGroup)) order.emplace_back(g);
    std::string out;
    for (const std::string& g : order)
      if (auto opts = options_of(app, g, expanded); !g.empty() && !opts.empty())
        out += make_group(g, false, opts);
    return out;
  }
};

// "unknown command 'lear'; did you mean 'learn'?": the command that `name` begins or is
// within two edits (or a third of its letters) of, else the list of commands.
std::string unknown_command_text(const CLI::App& app, const std::string& name) {
  std::vector<std::string_view> commands;
  std::string all;
  for (const CLI::App* sub : app.get_subcommands({})) {
    commands.push_back(sub->get_name());
    all += (all.empty() ? "" : ", ") + sub->get_name();
  }
  const std::string nearest = nearest_name(name, commands);
  return "unknown command '" + name + "'; " +
         (nearest.empty() ? "the commands are " + all : "did you mean '" + nearest + "'?");
}

const CLI::App* find_command(const CLI::App& app, const std::string& name) {
  for (const CLI::App* sub : app.get_subcommands({}))
    if (sub->get_name() == name) return sub;
  return nullptr;
}

}  // namespace

void setup_help(CLI::App& app) {
  app.formatter(std::make_shared<HelpFormatter>());
  app.set_help_all_flag("--help-all",
                        "Print the help with every option, the advanced too, and exit");
}

std::function<int()> register_help(CLI::App& app) {
  auto command = std::make_shared<std::string>();
  CLI::App* sub = app.add_subcommand(
      "help", "Print bnsl's help, or a command's: bnsl help learn is bnsl learn --help");
  sub->add_option("command", *command, "The command (default: bnsl's help)")->type_name("COMMAND");
  return [&app, sub, command]() {
    if (!sub->parsed()) return -1;
    const CLI::App* target = &app;
    std::string name = app.get_name();
    if (!command->empty()) {
      target = find_command(app, *command);
      if (!target) throw InputError(unknown_command_text(app, *command));
      name += " " + *command;
    }
    std::cout << target->get_formatter()->make_help(target, name, CLI::AppFormatMode::Normal);
    return 0;
  };
}

void check_command_name(const CLI::App& app, int argc, const char* const* argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string word = argv[i];
    if (word.empty() || word[0] == '-') continue;
    if (!find_command(app, word))
      throw CLI::ParseError(unknown_command_text(app, word), CLI::ExitCodes::ExtrasError);
    return;
  }
}

}  // namespace bnsl::cli
