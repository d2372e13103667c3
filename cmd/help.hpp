// The help texts: options in groups, the common groups first, wrapped at 100 columns, the
// advanced group only in --help-all; `bnsl help [COMMAND]`; and the nearest command named
// when a command is not known. CLI11's formatter (Debian 12's CLI11 2.1) prints the groups in
// the order their options were declared, every group but the unnamed one, and descriptions
// unwrapped: HelpFormatter orders the groups by kGroups, leaves the advanced one to
// --help-all and wraps the descriptions; the rest is CLI11's.
#pragma once

#include <CLI/CLI.hpp>
#include <array>
#include <string>

namespace bnsl::cli {

// The option groups, in the order --help lists them (after CLI11's "Options": the help flags
// and the output prefix). A group no option of a command is in is not shown.
inline constexpr const char* kInputGroup = "Input";
inline constexpr const char* kBudgetGroup = "Budget and threads";
inline constexpr const char* kScoreGroup = "Score";
inline constexpr const char* kSearchGroup = "Search";
inline constexpr const char* kPoolGroup = "Pool";
inline constexpr const char* kOutputGroup = "Outputs";
inline constexpr const char* kKnowledgeGroup = "Knowledge";
// Options for experiments and unusual runs: listed by --help-all only, followed there by the
// tunables of `--set NAME=VALUE` (bnsl/tunables.hpp: name, default, range, why).
inline constexpr const char* kAdvancedGroup = "Advanced";
inline constexpr std::array<const char*, 8> kGroups = {kBudgetGroup,    kInputGroup,   kScoreGroup,
                                                       kSearchGroup,    kPoolGroup,    kOutputGroup,
                                                       kKnowledgeGroup, kAdvancedGroup};

// Columns of every help text line (tests/cli/help_width.sh checks them).
inline constexpr std::size_t kHelpWidth = 100;

// Sets up the help of `app` and of the commands added after it: the formatter, --help-all.
void setup_help(CLI::App& app);

// `bnsl help [COMMAND]`: prints bnsl's help, or COMMAND's as `bnsl COMMAND --help` does.
std::function<int()> register_help(CLI::App& app);

// Before parsing: when the first word that is not an option names no command, throws a
// CLI::ParseError (exit status 2) naming the nearest command ("did you mean 'learn'?").
void check_command_name(const CLI::App& app, int argc, const char* const* argv);

}  // namespace bnsl::cli
