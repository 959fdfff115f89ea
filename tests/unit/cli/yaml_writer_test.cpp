// yaml_writer_test.cpp - --yaml: the --json document in block YAML, with the strings YAML would
// misread quoted.
#include <gtest/gtest.h>

#include "cli/json_document.hpp"
#include "cli/yaml_writer.hpp"
#include "common/error.hpp"

using namespace drover;
using namespace drover::cli;

TEST(Yaml, BlockLayout) {
    std::string json = R"({
  "jobs": [
    {"job_id": 12, "name": "run", "state": ["RUNNING"], "time": {"limit": {"set": true,
     "number": 60}}, "tags": [], "extra": {}},
    {"job_id": 13, "name": "x y", "state": [], "exit": null, "ratio": -1.5e3}
  ],
  "nested": [[1, 2], [{"a": 1}]],
  "errors": []
})";
    EXPECT_EQ(yaml_from_json(json), "%YAML 1.1\n"
                                    "---\n"
                                    "jobs:\n"
                                    "- job_id: 12\n"
                                    "  name: run\n"
                                    "  state:\n"
                                    "  - RUNNING\n"
                                    "  time:\n"
                                    "    limit:\n"
                                    "      set: true\n"
                                    "      number: 60\n"
                                    "  tags: []\n"
                                    "  extra: {}\n"
                                    "- job_id: 13\n"
                                    "  name: x y\n"
                                    "  state: []\n"
                                    "  exit: null\n"
                                    "  ratio: -1.5e3\n"
                                    "nested:\n"
                                    "- - 1\n"
                                    "  - 2\n"
                                    "- - a: 1\n"
                                    "errors: []\n"
                                    "...\n");
    EXPECT_EQ(yaml_from_json("[]"), "%YAML 1.1\n--- []\n...\n");
}

TEST(Yaml, QuotesWhatYamlWouldMisread) {
    auto y = [](const char *json_string) {
        std::string doc = yaml_from_json(std::string("{\"k\": ") + json_string + "}");
        std::string_view v(doc);
        v.remove_prefix(v.find("k: ") + 3);
        return std::string(v.substr(0, v.find('\n')));
    };
    EXPECT_EQ(y(R"("")"), "''");
    EXPECT_EQ(y(R"("true")"), "'true'");
    EXPECT_EQ(y(R"("False")"), "'False'");
    EXPECT_EQ(y(R"("null")"), "'null'");
    EXPECT_EQ(y(R"("~")"), "'~'");
    EXPECT_EQ(y(R"("yes")"), "'yes'");
    EXPECT_EQ(y(R"("off")"), "'off'");
    EXPECT_EQ(y(R"("12")"), "'12'");
    EXPECT_EQ(y(R"("-3.5")"), "'-3.5'");
    EXPECT_EQ(y(R"("0x1f")"), "'0x1f'");
    EXPECT_EQ(y(R"("12_3")"), "'12_3'");
    EXPECT_EQ(y(R"("2024-01-02")"), "'2024-01-02'");
    EXPECT_EQ(y(R"(".inf")"), "'.inf'");
    EXPECT_EQ(y(R"("1:30:00")"), "'1:30:00'");
    EXPECT_EQ(y(R"("gpu:2")"), "'gpu:2'");
    EXPECT_EQ(y(R"("a: b")"), "'a: b'");
    EXPECT_EQ(y(R"("x #y")"), "'x #y'");
    EXPECT_EQ(y(R"("#x")"), "'#x'");
    EXPECT_EQ(y(R"("-x")"), "'-x'");
    EXPECT_EQ(y(R"("*all")"), "'*all'");
    EXPECT_EQ(y(R"("[1]")"), "'[1]'");
    EXPECT_EQ(y(R"("{a}")"), "'{a}'");
    EXPECT_EQ(y(R"("@x")"), "'@x'");
    EXPECT_EQ(y(R"(" lead")"), "' lead'");
    EXPECT_EQ(y(R"("it's: x")"), "'it''s: x'");
    EXPECT_EQ(y(R"("a\nb\t\"c\"\\")"), R"("a\nb\t\"c\"\\")");
    EXPECT_EQ(y(R"("\u0001")"), R"("\x01")");
    // Plain where YAML reads the string back as it is.
    EXPECT_EQ(y(R"("debug")"), "debug");
    EXPECT_EQ(y(R"("n[1-4]")"), "n[1-4]");
    EXPECT_EQ(y(R"("/home/alice")"), "/home/alice");
    EXPECT_EQ(y(R"("cpu=1,mem=100M")"), "cpu=1,mem=100M");
    EXPECT_EQ(y(R"("23.02.7")"), "'23.02.7'");
    EXPECT_EQ(y(R"("v23")"), "v23");
    EXPECT_EQ(y(R"("\u00e9t\u00e9 \ud83d\ude00")"), "\xc3\xa9t\xc3\xa9 \xf0\x9f\x98\x80");
    EXPECT_EQ(y("7"), "7");
    EXPECT_EQ(y("false"), "false");
}

TEST(Yaml, KeysQuotedToo) {
    EXPECT_EQ(yaml_from_json(R"({"a b": 1, "true": 2, "": 3})"),
              "%YAML 1.1\n---\na b: 1\n'true': 2\n'': 3\n...\n");
}

TEST(Yaml, SameDocumentAsJson) {
    std::string json =
        json_document("nodes", JsonStamps::last_update, 1700000000,
                      [](JsonWriter &w) { w.begin_object().kv("name", "n1").end_object(); });
    std::string yaml = yaml_from_json(json);
    EXPECT_NE(yaml.find("nodes:\n- name: n1\nlast_update:\n  set: true\n"), std::string::npos);
    EXPECT_NE(yaml.find("meta:\n  plugin:\n    type: ''\n"), std::string::npos);
    EXPECT_NE(yaml.find("errors: []\nwarnings: []\n...\n"), std::string::npos);
    EXPECT_EQ(json_or_yaml(json, false), json);
    EXPECT_EQ(json_or_yaml(json, true), yaml);
}

TEST(Yaml, RefusesWhatIsNotJson) {
    EXPECT_THROW(yaml_from_json("{"), ParseError);
    EXPECT_THROW(yaml_from_json(R"({"a" 1})"), ParseError);
    EXPECT_THROW(yaml_from_json("[1,]"), ParseError);
    EXPECT_THROW(yaml_from_json(R"(["\q"])"), ParseError);
    EXPECT_THROW(yaml_from_json("nope"), ParseError);
    EXPECT_THROW(yaml_from_json("[1] 2"), ParseError);
}
