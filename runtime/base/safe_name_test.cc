// Tests of the path-component name check.
#include "runtime/base/safe_name.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace onnxgate {
namespace {

using ::testing::HasSubstr;

TEST(SafeNameTest, OrdinaryNamesPass) {
  for (const char* name : {"ref", "onnx-node", "onnx-node-1.12", "test-broken_relu", "ort+cuda"}) {
    EXPECT_TRUE(CheckSafeName("EP", name).ok()) << name;
  }
}

TEST(SafeNameTest, NamesThatLeaveOrHideInTheirFolderAreRefused) {
  EXPECT_THAT(CheckSafeName("EP", "../../..").message(),
              HasSubstr("EP name '../../..' must not start with '.' or '-'"));
  EXPECT_THAT(CheckSafeName("EP", "a/../../b").message(), HasSubstr("it names a file"));
  EXPECT_THAT(CheckSafeName("suite", ".hidden").message(), HasSubstr("must not start"));
  EXPECT_THAT(CheckSafeName("suite", "--root").message(), HasSubstr("must not start"));
  EXPECT_THAT(CheckSafeName("suite", "").message(), HasSubstr("is empty"));
  EXPECT_THAT(CheckSafeName("suite", std::string(129, 'a')).message(),
              HasSubstr("longer than 128"));
}

TEST(SafeNameTest, ControlCharactersAreEscapedInTheMessage) {
  Status st = CheckSafeName("EP", "r\x1b[31mef\n");
  EXPECT_THAT(st.message(), HasSubstr("'r\\x1b[31mef\\x0a'"));
  EXPECT_EQ(st.message().find('\x1b'), std::string::npos);
}

}  // namespace
}  // namespace onnxgate
