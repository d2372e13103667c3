// The help texts (help.hpp): HelpFormatter, `bnsl help`, and the nearest command's name.
#include "help.hpp"

#include <algorithm>
#include <iostream>
#include <set>
#include <sstream>
#include <vector>

#include "bnsl/error.hpp"

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

class HelpFormatter : public CLI::Formatter {
 public:
  HelpFormatter() { column_width(kNameColumn); }

  std::string make_help(const CLI::App* app, std::string name,
                        CLI::AppFormatMode mode) const override {
    if (mode == CLI::AppFormatMode::Sub) return make_expanded(app);
    const bool all = mode == CLI::AppFormatMode::All;
    std::string footer;
    if (!all && !options_of(app, kAdvancedGroup, false).empty())
      footer = "\nAdvanced options: " + name + " --help-all\n";
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

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1])});
      diagonal = above;
    }
  }
  return row[b.size()];
}

// "unknown command 'lear'; did you mean 'learn'?": the command that `name` begins or is
// within two edits (or a third of its letters) of, else the list of commands.
std::string unknown_command_text(const CLI::App& app, const std::string& name) {
  std::string nearest, all;
  std::size_t best = std::max<std::size_t>(2, name.size() / 3) + 1;
  for (const CLI::App* sub : app.get_subcommands({})) {
    const std::string& command = sub->get_name();
    all += (all.empty() ? "" : ", ") + command;
    const std::size_t d =
        name.size() >= 2 && command.rfind(name, 0) == 0 ? 1 : edit_distance(name, command);
    if (d < best) {
      best = d;
      nearest = command;
    }
  }
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
