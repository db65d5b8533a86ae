#pragma once
// The one GLFW window of a windowed run: opens it (with GLFW itself, so the
// library lives exactly as long as the window), reports the framebuffer size,
// and turns mouse and keyboard events into camera input and viewer commands
// that the frame loop takes once per frame. Esc asks the window to close.
// While the overlay has the mouse (or the keyboard), those events are its
// alone (setUiCapture).
#include <string>
#include <vector>

#include <glm/glm.hpp>
#include <volk.h>

struct GLFWwindow;

namespace vksim {

// What the user did to the camera since the last takeCameraInput().
struct CameraInput {
    glm::vec2 rotatePixels{0.0f};  // left-drag
    glm::vec2 panPixels{0.0f};     // right-, middle- or Shift+left-drag
    float zoomSteps = 0.0f;        // wheel notches, positive = towards the target
    bool reset = false;            // R
    bool frameScene = false;       // F
};

// Viewer shortcuts pressed since the last takeKeyCommands().
struct KeyCommands {
    bool toggleOverlay = false;    // F1 or Tab
    bool togglePause = false;      // Space
    bool stepOnce = false;         // N
    bool nextDisplayMode = false;  // M
    int displayMode = -1;          // 1..5 -> 0..4
    bool toggleColliders = false;  // C
    bool toggleContacts = false;   // K
};

class Window {
public:
    // Throws std::runtime_error ("cannot open a window (no display?): ...")
    // when GLFW cannot start or has no Vulkan loader.
    Window(const std::string& title, int width, int height);
    ~Window();
    Window(const Window&) = delete;
    Window& operator=(const Window&) = delete;

    // Instance extensions the surface needs (valid while the window lives).
    std::vector<const char*> requiredInstanceExtensions() const;
    // The caller (VulkanContext) owns and destroys the surface.
    VkSurfaceKHR createSurface(VkInstance instance) const;

    bool shouldClose() const;
    void pollEvents();
    // Blocks until something happens or 0.1 s passed (used while minimised:
    // nothing to draw).
    void waitEvents();

    // Framebuffer size in pixels (zero while minimised on some platforms).
    VkExtent2D framebufferExtent() const;
    // Iconified, or no pixels to draw into: the frame loop waits instead.
    bool minimized() const;
    // True once after the framebuffer changed size.
    bool takeResized();
    CameraInput takeCameraInput();
    KeyCommands takeKeyCommands();
    // Whether the overlay wants this frame's mouse and keyboard events.
    void setUiCapture(bool mouse, bool keyboard) {
        uiMouse_ = mouse;
        uiKeyboard_ = keyboard;
    }
    // Cursor position in framebuffer pixels, and whether Ctrl + left button
    // is held (picking).
    glm::vec2 cursorPixels() const;
    bool pickButtonDown() const;

    void setTitle(const std::string& title);
    GLFWwindow* handle() const { return window_; }

private:
    static void onFramebufferSize(GLFWwindow* window, int width, int height);
    static void onCursorPos(GLFWwindow* window, double x, double y);
    static void onScroll(GLFWwindow* window, double dx, double dy);
    static void onKey(GLFWwindow* window, int key, int scancode, int action, int mods);

    GLFWwindow* window_ = nullptr;
    bool resized_ = false;
    glm::dvec2 lastCursor_{0.0};
    bool cursorKnown_ = false;
    CameraInput input_;
    KeyCommands keys_;
    bool uiMouse_ = false;
    bool uiKeyboard_ = false;
};

}  // namespace vksim
