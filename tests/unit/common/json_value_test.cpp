// json_value_test.cpp - the strict JSON parser: valid documents, every kind of refusal with its
// byte offset, string escapes and surrogate pairs, numbers at and beyond int64, the depth limit,
// and dump().
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>

#include "common/json_value.hpp"

namespace drover::json {
namespace {

// "accepted", or the refusal's message; *offset gets the refusal's byte offset.
std::string refusal(std::string_view text, std::size_t *offset = nullptr,
                    std::size_t max_depth = 64) {
    try {
        (void)parse(text, max_depth);
    } catch (const ParseError &e) {
        if (offset) *offset = e.offset;
        return e.what();
    }
    return "accepted";
}

TEST(JsonValue, ParsesADocumentKeepingMemberOrder) {
    Value v = parse(" {\"b\": [1, -2.5, true, false, null], \"a\": {\"x\": \"y\"}, \"b\": 3}\r\n");
    ASSERT_TRUE(v.is_object());
    ASSERT_EQ(v.members().size(), 3u);
    EXPECT_EQ(v.members()[0].first, "b");
    EXPECT_EQ(v.members()[1].first, "a");
    const Value *b = v.find("b");
    ASSERT_NE(b, nullptr);
    ASSERT_TRUE(b->is_array()) << "find gives the first of duplicate keys";
    const Array &items = b->items();
    ASSERT_EQ(items.size(), 5u);
    EXPECT_EQ(items[0].as_int(), 1);
    EXPECT_EQ(items[1].as_double(), -2.5);
    EXPECT_EQ(items[1].as_int(), std::nullopt);
    EXPECT_TRUE(items[2].as_bool());
    EXPECT_FALSE(items[3].as_bool());
    EXPECT_TRUE(items[4].is_null());
    EXPECT_EQ(v.find("a")->find("x")->as_string(), "y");
    EXPECT_EQ(v.find("missing"), nullptr);
    EXPECT_EQ(items[0].find("x"), nullptr) << "find on a non-object";
    EXPECT_EQ(dump(v), R"({"b":[1,-2.5,true,false,null],"a":{"x":"y"},"b":3})");
}

TEST(JsonValue, ScalarsAtTopLevelAndKindNames) {
    EXPECT_EQ(parse("\"s\"").kind_name(), "string");
    EXPECT_EQ(parse("0").kind_name(), "number");
    EXPECT_EQ(parse("null").kind_name(), "null");
    EXPECT_EQ(parse("true").kind_name(), "boolean");
    EXPECT_EQ(parse("[]").kind_name(), "array");
    EXPECT_EQ(parse("{}").kind_name(), "object");
    EXPECT_THROW((void)parse("1").as_string(), std::logic_error);
    EXPECT_EQ(parse("\"1\"").as_int(), std::nullopt);
}

TEST(JsonValue, Numbers) {
    EXPECT_EQ(parse("-0").as_int(), 0);
    EXPECT_EQ(parse("1e2").as_double(), 100);
    EXPECT_EQ(parse("1e2").as_int(), std::nullopt) << "an exponent makes it no integer literal";
    EXPECT_EQ(parse("1.0").as_int(), std::nullopt);
    EXPECT_EQ(parse("0.5E-1").as_double(), 0.05);
    EXPECT_EQ(parse("9223372036854775807").as_int(), std::numeric_limits<int64_t>::max());
    EXPECT_EQ(parse("-9223372036854775808").as_int(), std::numeric_limits<int64_t>::min());
    Value big = parse("9223372036854775808");
    EXPECT_EQ(big.as_int(), std::nullopt) << "beyond int64: a double only";
    EXPECT_EQ(big.as_double(), 9223372036854775808.0);
    EXPECT_EQ(parse("123456789012345678901234567890").as_double(), 1.2345678901234568e29);
    EXPECT_EQ(parse("1e-400").as_double(), 0.0) << "too small reads as zero";
    EXPECT_EQ(parse("0.0000000000000000000000000000000000000001e-300").as_double(), 0.0);
    std::size_t at = 0;
    EXPECT_EQ(refusal("[1e400]", &at), "number out of range at byte 1");
    EXPECT_EQ(refusal("01", &at), "leading zero in number at byte 0");
    EXPECT_EQ(refusal("-01"), "leading zero in number at byte 1");
    EXPECT_EQ(refusal("-"), "expected a digit at byte 1");
    EXPECT_EQ(refusal("1."), "expected a digit after '.' at byte 2");
    EXPECT_EQ(refusal(".5"), "expected a value at byte 0");
    EXPECT_EQ(refusal("1e+"), "expected a digit in exponent at byte 3");
    EXPECT_EQ(refusal("+1"), "expected a value at byte 0");
    EXPECT_EQ(refusal("NaN"), "expected a value at byte 0");
    EXPECT_EQ(refusal("[Infinity]"), "expected a value at byte 1");
    EXPECT_EQ(refusal("-Infinity"), "expected a digit at byte 1");
}

TEST(JsonValue, StringEscapesAndUtf8) {
    EXPECT_EQ(parse(R"("a\"b\\c\/d\b\f\n\r\t")").as_string(), "a\"b\\c/d\b\f\n\r\t");
    EXPECT_EQ(parse(R"("\u0041\u00e9\u20AC")").as_string(), "A\xc3\xa9\xe2\x82\xac");
    EXPECT_EQ(parse(R"("\ud83d\ude00")").as_string(), "\xf0\x9f\x98\x80") << "a surrogate pair";
    EXPECT_EQ(parse(R"("\u0000")").as_string(), std::string(1, '\0'));
    EXPECT_EQ(parse("\"\xf0\x9f\x98\x80 caf\xc3\xa9\"").as_string(),
              "\xf0\x9f\x98\x80 caf\xc3\xa9");
    std::size_t at = 0;
    EXPECT_EQ(refusal(R"(["\ud83d"])", &at), "lone high surrogate at byte 2");
    EXPECT_EQ(refusal(R"("\ud83d\u0041")"), "lone high surrogate at byte 1");
    EXPECT_EQ(refusal(R"("x\ude00")"), "lone low surrogate at byte 2");
    EXPECT_EQ(refusal(R"("\x")"), "invalid escape at byte 1");
    EXPECT_EQ(refusal(R"("\u12g4")"), "expected four hex digits after \\u at byte 5");
    EXPECT_EQ(refusal("\"a\tb\""), "control character in string at byte 2");
    EXPECT_EQ(refusal("\"a\nb\""), "control character in string at byte 2");
    EXPECT_EQ(refusal("\"\xc3\""), "invalid UTF-8 in string at byte 1");
    EXPECT_EQ(refusal("\"\xc0\xaf\""), "invalid UTF-8 in string at byte 1") << "overlong";
    EXPECT_EQ(refusal("\"\xed\xa0\x80\""), "invalid UTF-8 in string at byte 1") << "surrogate";
    EXPECT_EQ(refusal("[1, \"abc"), "unterminated string at byte 4");
    EXPECT_EQ(refusal("\"abc\\"), "invalid escape at byte 4");
}

TEST(JsonValue, StructuralRefusalsAndOffsets) {
    std::size_t at = 0;
    EXPECT_EQ(refusal(R"({"a": 1, "b": 2 "c": 3})", &at), "expected ',' or '}' at byte 16");
    EXPECT_EQ(at, 16u);
    EXPECT_EQ(refusal("[1 2]"), "expected ',' or ']' at byte 3");
    EXPECT_EQ(refusal("[1,]"), "expected a value at byte 3");
    EXPECT_EQ(refusal(R"({"a":1,})"), "expected a string key at byte 7");
    EXPECT_EQ(refusal("{a:1}"), "expected a string key or '}' at byte 1");
    EXPECT_EQ(refusal(R"({"a" 1})"), "expected ':' at byte 5");
    EXPECT_EQ(refusal("{\"a\":"), "expected a value at byte 5");
    EXPECT_EQ(refusal("["), "expected a value at byte 1");
    EXPECT_EQ(refusal(""), "expected a value at byte 0");
    EXPECT_EQ(refusal("  "), "expected a value at byte 2");
    EXPECT_EQ(refusal("tru"), "expected a value at byte 0");
    EXPECT_EQ(refusal("nul l"), "expected a value at byte 0");
    EXPECT_EQ(refusal("{} x", &at), "trailing characters at byte 3");
    EXPECT_EQ(refusal("[] []"), "trailing characters at byte 3");
    EXPECT_EQ(refusal("\f1"), "expected a value at byte 0") << "form feed is not JSON whitespace";
    EXPECT_EQ(refusal("1\v"), "trailing characters at byte 1");
    EXPECT_EQ(refusal(std::string_view("1\0", 2)), "trailing characters at byte 1");
}

TEST(JsonValue, DepthLimit) {
    std::string ok = std::string(64, '[') + std::string(64, ']');
    EXPECT_NO_THROW((void)parse(ok));
    std::size_t at = 0;
    EXPECT_EQ(refusal(std::string(65, '[') + std::string(65, ']'), &at),
              "nesting deeper than 64 at byte 64");
    EXPECT_EQ(refusal(R"({"a":{"b":[1]}})", nullptr, 2), "nesting deeper than 2 at byte 10");
    // Far deeper than any stack would take: refused at the limit, not by a crash.
    EXPECT_EQ(refusal(std::string(1'000'000, '['), &at), "nesting deeper than 64 at byte 64");
    EXPECT_EQ(refusal(std::string(100'000, '{'), &at), "expected a string key or '}' at byte 1");
    std::string objects;
    for (int i = 0; i < 100'000; ++i) objects += "{\"a\":";
    EXPECT_EQ(refusal(objects, &at), "nesting deeper than 64 at byte 320");
}

TEST(JsonValue, DumpRoundTrips) {
    for (const char *text : {R"({"k":"a\"\\\n\u0001é😀","n":[0,-1,1.5,1e+300,5e-324]})",
                             R"([[],{},"",null,false])", "-0.0", "1.0"}) {
        Value v = parse(text);
        std::string d = dump(v);
        EXPECT_EQ(dump(parse(d)), d) << text;
    }
    EXPECT_EQ(dump(parse("1.0")), "1");
    EXPECT_EQ(dump(parse("-0")), "-0");
    EXPECT_EQ(parse("-0").as_int(), 0);
    EXPECT_EQ(dump(parse("\"\\u007f\\u001f\"")), "\"\\u007f\\u001f\"");
    EXPECT_EQ(dump(Value::number(std::numeric_limits<double>::infinity())), "null");
    EXPECT_EQ(parse(R"({"a":[1,"x"]})"), parse(R"( { "a" : [ 1 , "x" ] } )"));
}

} // namespace
} // namespace drover::json
