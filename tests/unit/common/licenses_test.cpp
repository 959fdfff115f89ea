// licenses_test.cpp - license lists as slurm.conf's Licenses= and -L write them, and the
// configuration keys that take them (Licenses=, a partition's QOS=).
#include <gtest/gtest.h>

#include "common/config.hpp"
#include "common/error.hpp"
#include "common/licenses.hpp"

namespace drover {
namespace {

using Lics = std::vector<LicenseCount>;

TEST(Licenses, CountsDefaultToOneAndRepeatsAddUp) {
    EXPECT_EQ(parse_licenses("fluent:30,matlab"), (Lics{{"fluent", 30}, {"matlab", 1}}));
    EXPECT_EQ(parse_licenses("a*2, b:1,a:3"), (Lics{{"a", 5}, {"b", 1}}));
    EXPECT_EQ(parse_licenses(""), Lics{});
    EXPECT_EQ(licenses_text(parse_licenses("matlab:2,fluent")), "matlab:2,fluent:1");
    EXPECT_EQ(parse_licenses(licenses_text({{"x", 7}})), (Lics{{"x", 7}}));
}

TEST(Licenses, BadItemsAreNamed) {
    for (const char *bad : {":2", "a:0", "a:x", "a:-1", "a:99999999999"})
        EXPECT_THROW(parse_licenses(bad), ParseError) << bad;
    try {
        parse_licenses("ok:1,matlab:zero");
        FAIL();
    } catch (const ParseError &e) {
        EXPECT_STREQ(e.what(), "license 'matlab:zero': bad count");
    }
}

TEST(Licenses, ConfigurationKeys) {
    Config c = parse_config("Licenses=matlab:2,fluent\nNodeName=n1\n"
                            "PartitionName=p Nodes=n1 QOS=High\n",
                            "slurm.conf");
    EXPECT_EQ(c.licenses, "matlab:2,fluent:1");
    ASSERT_EQ(c.partitions.size(), 1u);
    EXPECT_EQ(c.partitions[0].qos, "high");
    try {
        parse_config("Licenses=matlab:none\n", "slurm.conf");
        FAIL();
    } catch (const ParseError &e) {
        EXPECT_EQ(std::string(e.what()),
                  "slurm.conf:1: bad value for Licenses: 'matlab:none' (license 'matlab:none': "
                  "bad count)");
    }
}

} // namespace
} // namespace drover
