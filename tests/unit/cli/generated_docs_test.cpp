// generated_docs_test.cpp - man pages and bash completion made from option tables and help
// texts: every option a command parses is in its man page, described where its help describes
// it; completion offers each command's options and knows which of them name jobs, partitions
// and nodes.
#include <gtest/gtest.h>

#include <algorithm>

#include "cli/command_docs.hpp"
#include "cli/completion.hpp"
#include "cli/help_text.hpp"
#include "cli/man_page.hpp"
#include "cli/scontrol_args.hpp"
#include "cli/srun_help.hpp"

using namespace drover::cli;

namespace {

enum : int { kAlpha = 1, kBeta, kPart, kNodes };

constexpr OptSpec kFooSpecs[] = {
    {kAlpha, 'a', "alpha", Arg::required},
    {kBeta, 0, "beta", Arg::none},
    {kPart, 'p', "partition", Arg::required},
    {kNodes, 'w', "nodelist", Arg::required},
};

constexpr const char *kFooHelp = "Usage: foo [-a value] [-p partition]\n"
                                 "           [-w nodes]\n"
                                 "  -a, --alpha=value     what alpha does,\n"
                                 "                        over two lines\n"
                                 "  -p, --partition=name  the partition\n"
                                 "  -w, --nodelist=nodes  the nodes\n"
                                 "\n"
                                 "Help options:\n"
                                 "  --help                show this help message\n";

const std::vector<CommandDoc> &docs() {
    static const std::vector<CommandDoc> d = {
        {"foo", 1, "does foo", kFooSpecs, kFooHelp},
        {"food", 8, "the foo daemon", {}, "Usage: food [-D]\n  -D  stay in the foreground\n"},
    };
    return d;
}

} // namespace

TEST(HelpText, SplitsUsageOptionEntriesAndTheRest) {
    HelpText h = parse_help(kFooHelp);
    ASSERT_EQ(h.usage.size(), 2u);
    EXPECT_EQ(h.usage[1], "           [-w nodes]");
    ASSERT_EQ(h.entries.size(), 4u);
    EXPECT_EQ(h.entries[0].spelled, "-a, --alpha=value");
    EXPECT_EQ(h.entries[0].description, "what alpha does, over two lines");
    EXPECT_EQ(h.entries[3].spelled, "--help");
    EXPECT_EQ(h.other, std::vector<std::string>{"Help options:"});
}

TEST(HelpText, ReadsScontrolsColonEntries) {
    HelpText h = parse_help("     -a or --all: equivalent to \"all\" command\n");
    ASSERT_EQ(h.entries.size(), 1u);
    EXPECT_EQ(h.entries[0].spelled, "-a or --all");
    EXPECT_EQ(h.entries[0].description, "equivalent to \"all\" command");
}

TEST(HelpText, AnEntryNamesAnOptionOnlyByItsWholeName) {
    HelpEntry e{"-t, --states=states", ""};
    EXPECT_TRUE(entry_names(e, {1, 't', "states", Arg::required}));
    EXPECT_TRUE(entry_names(e, {1, 0, "states", Arg::required}));
    EXPECT_FALSE(entry_names(e, {1, 0, "state", Arg::required}));
    EXPECT_FALSE(entry_names(e, {1, 's', nullptr, Arg::none}));
    EXPECT_FALSE(entry_names({"--hint=type", ""}, {1, 'h', nullptr, Arg::none}));
}

TEST(ManPage, HasEveryOptionOfTheTableAndItsHelp) {
    std::string page = man_page(docs()[0], docs());
    EXPECT_TRUE(page.starts_with(".TH FOO 1 \"\" \"Drover ")) << page;
    EXPECT_NE(page.find(".SH NAME\nfoo \\- does foo\n"), std::string::npos) << page;
    // Its help's section titles alone say nothing: no text block for them.
    EXPECT_NE(page.find(".SH DESCRIPTION\nDoes foo.\n.SH OPTIONS\n"), std::string::npos) << page;
    // The lines that continue "Usage: " lose as much of their indent.
    EXPECT_NE(page.find(".SH SYNOPSIS\n.nf\nfoo [\\-a value] [\\-p partition]\n"
                        "    [\\-w nodes]\n.fi\n"),
              std::string::npos)
        << page;
    EXPECT_NE(page.find(".TP\n\\fB\\-a\\fR, \\fB\\-\\-alpha\\fR=\\fIvalue\\fR\n"
                        "what alpha does, over two lines\n"),
              std::string::npos)
        << page;
    // --beta is parsed but the help does not name it: the page still lists it.
    EXPECT_NE(page.find("Also accepted"), std::string::npos) << page;
    EXPECT_NE(page.find(".TP\n\\fB\\-\\-beta\\fR\n"), std::string::npos) << page;
    EXPECT_NE(page.find(".SH SEE ALSO\n\\fBfood\\fR(8)\n"), std::string::npos) << page;
}

TEST(ManPage, ADaemonsPageComesFromItsHelp) {
    std::string page = man_page(docs()[1], docs());
    EXPECT_TRUE(page.starts_with(".TH FOOD 8 ")) << page;
    EXPECT_NE(page.find(".TP\n\\fB\\-D\\fR\nstay in the foreground\n"), std::string::npos) << page;
    EXPECT_EQ(page.find("Also accepted"), std::string::npos) << page;
}

TEST(ManPage, EscapesWhatRoffWouldRead) {
    EXPECT_EQ(roff_escape(".hidden"), "\\&.hidden");
    EXPECT_EQ(roff_escape("'quoted"), "\\&'quoted");
    EXPECT_EQ(roff_escape("a\\b-c"), "a\\eb\\-c");
}

TEST(Completion, OffersEachCommandsOptionsAndTheirValues) {
    std::vector<std::string_view> verbs = {"show", "update"};
    std::string script = bash_completion(docs(), verbs);
    EXPECT_NE(script.find("    foo)\n      opts=\"--alpha --beta --partition --nodelist\"\n"
                          "      takes=\"--alpha -a --partition -p --nodelist -w\"\n"
                          "      kinds=\"--partition=partitions -p=partitions --nodelist=nodes "
                          "-w=nodes\"\n"),
              std::string::npos)
        << script;
    // Daemons take no completion; the commands are registered by name.
    EXPECT_EQ(script.find("    food)"), std::string::npos);
    EXPECT_NE(script.find("\ncomplete -F _drover_complete foo\n"), std::string::npos) << script;
    EXPECT_NE(script.find("_drover_scontrol_verbs=\"show update\"\n"), std::string::npos);
}

TEST(Completion, OffersOnlyWhatScontrolReads) {
    for (auto word : scontrol_show_entities())
        EXPECT_TRUE(match_show_entity(word).has_value()) << word;
    for (auto word : scontrol_words())
        EXPECT_TRUE(match_scontrol_command(word).has_value()) << word;
    EXPECT_GE(scontrol_words().size(), 20u);
}

TEST(SrunHelp, DescribesEveryOptionSrunParses) {
    HelpText h = parse_help(srun_help_text("srun"));
    for (const auto &spec : srun_options()) {
        std::string_view name = spec.long_name ? spec.long_name : "";
        if (name == "cpu_bind" || name == "mem_bind" || name == "pack-group")
            continue; // old spellings of --cpu-bind, --mem-bind, --het-group
        bool named = std::any_of(h.entries.begin(), h.entries.end(), [&](const HelpEntry &e) {
            return entry_names(e, spec) && !e.description.empty();
        });
        EXPECT_TRUE(named) << "--" << name;
    }
    EXPECT_EQ(h.usage, std::vector<std::string>{"Usage: srun [OPTIONS...] executable [args...]"});
    EXPECT_TRUE(srun_help_text("salloc").starts_with("Usage: salloc [OPTIONS...] [command"));
}
