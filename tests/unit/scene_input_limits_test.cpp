// Hostile scene text (issue 14): deep nesting, huge keys and values, bytes
// after the document, numbers that change when they become floats. Each is
// refused with one short line naming the file and the place; none crashes.
// Generated here rather than kept in tests/bad_scenes/, where they would be
// megabytes.
#include <gtest/gtest.h>

#include <string>

#include "scene/json_reader.h"
#include "scene/scene_loader.h"

namespace vksim {
namespace {

// The error of loading `text` as "limits.json"; fails the test if it loads.
std::string limitErrorOf(const std::string& text) {
    try {
        parseScene(text, "limits.json");
    } catch (const SceneError& error) {
        return error.what();
    }
    ADD_FAILURE() << "accepted: " << text.substr(0, 200);
    return {};
}

// One line, short whatever the input's size, naming the file.
void expectShortLine(const std::string& message) {
    EXPECT_TRUE(message.starts_with("limits.json: ")) << message.substr(0, 300);
    EXPECT_EQ(message.find('\n'), std::string::npos);
    EXPECT_LT(message.size(), 600u) << message.substr(0, 300);
}

std::string nested(std::size_t depth, char open, char close) {
    return std::string(depth, open) + std::string(depth, close);
}

TEST(SceneInputLimits, DeepNestingAtTheRootIsRefusedNotACrash) {
    for (const auto& [open, close] : {std::pair{'[', ']'}, std::pair{'{', '}'}}) {
        std::string text = open == '[' ? nested(100000, '[', ']') : "";
        if (open == '{') {
            for (int i = 0; i < 100000; ++i) text += "{\"a\":";
            text += "1" + std::string(100000, '}');
        }
        const std::string message = limitErrorOf(text);
        expectShortLine(message);
        EXPECT_NE(message.find("nested more than 64 levels deep"), std::string::npos) << message;
    }
}

TEST(SceneInputLimits, DeepNestingInsideAValueIsRefusedWithItsPath) {
    const std::string message =
        limitErrorOf(R"({"objects": [{"type": "cloth", "mass": )" + nested(100000, '[', ']') + "}]}");
    expectShortLine(message);
    EXPECT_NE(message.find("limits.json: /objects/0/mass/0/0/0/...(52 levels).../0/0/0/0/0/0: "), std::string::npos) << message;
    EXPECT_NE(message.find("nested more than 64 levels deep"), std::string::npos) << message;
}

TEST(SceneInputLimits, NestingWithinTheLimitStillGetsAShortMessage) {
    // 60 levels parse; the value is then the wrong type and quoted in brief.
    const std::string message =
        limitErrorOf(R"({"objects": [{"type": "cloth", "mass": )" + nested(60, '[', ']') + "}]}");
    expectShortLine(message);
    EXPECT_NE(message.find("/objects/0/mass: expected a number > 0, got an array of 1 elements"), std::string::npos)
        << message;
}

TEST(SceneInputLimits, AHugeUnknownKeyIsQuotedInBrief) {
    const std::string key(16u << 20, 'k');
    const std::string message = limitErrorOf(R"({"objects": [{"type": "cloth"}], ")" + key + R"(": 1})");
    expectShortLine(message);
    EXPECT_NE(message.find(R"(unknown key "kkkkkkkkkk)"), std::string::npos) << message;
    EXPECT_NE(message.find("\u2026" + std::string(16, 'k') + "\" (16777216 bytes)"), std::string::npos) << message;
}

TEST(SceneInputLimits, AHugeStringValueIsQuotedInBrief) {
    const std::string value(4u << 20, 'v');
    const std::string message = limitErrorOf(R"({"objects": [{"type": "cloth", "mass": ")" + value + R"("}]})");
    expectShortLine(message);
    EXPECT_NE(message.find("/objects/0/mass: expected a number > 0, got string \"vvvv"), std::string::npos) << message;
}

TEST(SceneInputLimits, AHugeNameIsRefused) {
    const std::string message =
        limitErrorOf(R"({"objects": [{"type": "cloth", "name": ")" + std::string(1u << 20, 'n') + R"("}]})");
    expectShortLine(message);
    EXPECT_NE(message.find("/objects/0/name: expected a string of at most 4096 bytes"), std::string::npos) << message;
}

TEST(SceneInputLimits, AnUnterminatedHugeStringIsASyntaxErrorInBrief) {
    const std::string message = limitErrorOf(R"({"objects": [{"type": ")" + std::string(1u << 20, 'x'));
    expectShortLine(message);
    EXPECT_NE(message.find("JSON syntax error"), std::string::npos) << message;
}

TEST(SceneInputLimits, ANulByteIsRefusedWithItsOffset) {
    const std::string scene = R"({"objects": [{"type": "cloth"}]})";
    const std::string message = limitErrorOf(scene + "\n" + std::string(1, '\0') + "anything");
    expectShortLine(message);
    EXPECT_NE(message.find("line 2, column 1 (byte offset 33): NUL byte"), std::string::npos) << message;
}

TEST(SceneInputLimits, TextAfterTheDocumentIsRefused) {
    const std::string message = limitErrorOf(R"({"objects": [{"type": "cloth"}]} {"objects": []})");
    expectShortLine(message);
    EXPECT_NE(message.find("line 1, column 34: JSON syntax error"), std::string::npos) << message;
    EXPECT_NE(message.find("expected end of input"), std::string::npos) << message;
}

TEST(SceneInputLimits, RangesAreCheckedOnTheFloat) {
    const std::string cloth = R"("objects": [{"type": "cloth"}])";
    // Zero as a float, though a positive double.
    EXPECT_NE(limitErrorOf(R"({"colliders": [{"type": "sphere", "radius": 1e-320}], )" + cloth + "}")
                  .find("/colliders/0/radius: expected a number >= 1e-06, got 1e-320"),
              std::string::npos);
    // Rounds onto the excluded bound.
    EXPECT_NE(limitErrorOf(R"({"camera": {"pitch": 89.9999999}, )" + cloth + "}")
                  .find("/camera/pitch: expected a number in (-90, 90), got 89.9999999, which is 90 as a 32-bit float"),
              std::string::npos);
    EXPECT_NE(limitErrorOf(R"({"solver": {"damping": 1, "stencilStep": 1e-46}, )" + cloth + "}")
                  .find("/solver/stencilStep: expected a number > 0, got 1e-46, which is 0 as a 32-bit float"),
              std::string::npos);
    // Positive, but subnormal.
    EXPECT_NE(limitErrorOf(R"({"objects": [{"type": "cloth", "mass": 1e-40}]})")
                  .find("/objects/0/mass: expected a number > 0, got 1e-40, which is subnormal as a 32-bit float"),
              std::string::npos);
    // Lengths below a micrometre.
    EXPECT_NE(limitErrorOf(R"({"camera": {"distance": 1e-30}, )" + cloth + "}")
                  .find("/camera/distance: expected a number >= 1e-06, got 1e-30"),
              std::string::npos);
    EXPECT_NE(limitErrorOf(R"({"objects": [{"type": "tetBox", "size": [1, 1e-30, 1]}]})")
                  .find("/objects/0/size/1: expected a number >= 1e-06, got 1e-30"),
              std::string::npos);
    // A bound written in decimal is accepted though its float differs.
    EXPECT_NO_THROW(parseScene(R"({"camera": {"distance": 1e-6}, )" + cloth + "}", "ok.json"));
    // A double below 90 that is not 90 as a float is accepted.
    EXPECT_NO_THROW(parseScene(R"({"camera": {"pitch": 89.999995}, )" + cloth + "}", "ok.json"));
}

TEST(SceneInputLimits, QuoteInputCutsAtACharacterBoundary) {
    EXPECT_EQ(json_input::quoteInput("short"), "\"short\"");
    // The first 61 bytes would end inside the 2-byte "é" and the last 16
    // start inside the 3-byte "€": both cuts move to the character's edge.
    const std::string text = std::string(60, 'a') + "\xc3\xa9" + std::string(20, 'b') + "\xe2\x82\xac" +
                             std::string(14, 'c');
    EXPECT_EQ(json_input::quoteInput(text), "\"" + std::string(60, 'a') + "\u2026" + std::string(14, 'c') +
                                                "\" (99 bytes)");
}

}  // namespace
}  // namespace vksim

#include "solvers/model_builder.h"

namespace vksim {
namespace {

// What the model builder refuses names the scene file and the object's JSON
// path, like the loader's errors (it said only "cloth 'c': mass must be
// positive").
TEST(ModelBuilderMessages, NameTheSceneFileAndTheObject) {
    Scene scene = parseScene(R"({"objects": [{"type": "cloth", "resolution": [4, 4]},
                                             {"type": "cloth", "name": "c", "resolution": [4, 4]}]})",
                             "scenes/x.json");
    ASSERT_EQ(scene.cloths.size(), 2u);
    EXPECT_EQ(scene.cloths[1].source, "/objects/1");
    scene.cloths[1].mass = 0.0f;
    try {
        buildModel(scene);
        FAIL() << "built a model with a massless cloth";
    } catch (const std::invalid_argument& error) {
        EXPECT_EQ(std::string(error.what()), "scenes/x.json: /objects/1: cloth 'c': mass must be positive (got 0)");
    }
}

}  // namespace
}  // namespace vksim
