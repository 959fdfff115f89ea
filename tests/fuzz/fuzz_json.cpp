// fuzz_json.cpp - fuzz target: arbitrary bytes through the strict JSON parser. Nothing may crash;
// a refusal must point inside the text; whatever parses must dump to JSON that parses back and
// dumps to the same bytes.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "common/json_value.hpp"

using namespace drover::json;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *bytes, std::size_t size) {
    std::string_view text(reinterpret_cast<const char *>(bytes), size);
    // A small depth limit too, so refusals at the limit get exercised by short inputs.
    for (std::size_t depth : {std::size_t(64), std::size_t(3)}) {
        Value v;
        try {
            v = parse(text, depth);
        } catch (const ParseError &e) {
            if (e.offset > size) std::abort();
            continue;
        }
        std::string once = dump(v);
        Value back;
        try {
            back = parse(once, depth);
        } catch (const ParseError &) {
            std::abort(); // dump wrote something the parser refuses
        }
        if (dump(back) != once) std::abort();
    }
    return 0;
}
