#include "render/window.h"

#include <stdexcept>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include "vk/vk_check.h"

namespace vksim {
namespace {

// GLFW's last error as text, for the one-line message the user sees.
std::string glfwErrorText() {
    const char* description = nullptr;
    glfwGetError(&description);
    return description ? description : "unknown GLFW error";
}

[[noreturn]] void throwCannotOpen(const std::string& why) {
    throw std::runtime_error("cannot open a window (no display?): " + why + ", use --headless");
}

Window* owner(GLFWwindow* window) { return static_cast<Window*>(glfwGetWindowUserPointer(window)); }

}  // namespace

Window::Window(const std::string& title, int width, int height) {
    if (!glfwInit()) throwCannotOpen(glfwErrorText());
    // GLFW 3.3 finds the Vulkan loader on its own (libvulkan.so.1, the same
    // library volk loaded), so its surface belongs to our instance.
    if (!glfwVulkanSupported()) {
        glfwTerminate();
        throwCannotOpen("GLFW found no Vulkan loader");
    }
    glfwWindowHint(GLFW_CLIENT_API, GLFW_NO_API);
    glfwWindowHint(GLFW_RESIZABLE, GLFW_TRUE);
    window_ = glfwCreateWindow(width, height, title.c_str(), nullptr, nullptr);
    if (!window_) {
        const std::string why = glfwErrorText();
        glfwTerminate();
        throwCannotOpen(why);
    }
    glfwSetWindowUserPointer(window_, this);
    glfwSetFramebufferSizeCallback(window_, onFramebufferSize);
    glfwSetCursorPosCallback(window_, onCursorPos);
    glfwSetScrollCallback(window_, onScroll);
    glfwSetKeyCallback(window_, onKey);
}

Window::~Window() {
    glfwDestroyWindow(window_);
    glfwTerminate();
}

std::vector<const char*> Window::requiredInstanceExtensions() const {
    uint32_t count = 0;
    const char** names = glfwGetRequiredInstanceExtensions(&count);
    if (!names) throwCannotOpen("no Vulkan surface support: " + glfwErrorText());
    return {names, names + count};
}

VkSurfaceKHR Window::createSurface(VkInstance instance) const {
    VkSurfaceKHR surface = VK_NULL_HANDLE;
    VK_CHECK(glfwCreateWindowSurface(instance, window_, nullptr, &surface));
    return surface;
}

bool Window::shouldClose() const { return glfwWindowShouldClose(window_); }

void Window::pollEvents() { glfwPollEvents(); }

// With a timeout, so a loop that waits for a minimised window to come back
// still notices a close request or the end of a test.
void Window::waitEvents() { glfwWaitEventsTimeout(0.1); }

VkExtent2D Window::framebufferExtent() const {
    int width = 0;
    int height = 0;
    glfwGetFramebufferSize(window_, &width, &height);
    return {static_cast<uint32_t>(width), static_cast<uint32_t>(height)};
}

bool Window::minimized() const {
    // Windows reports a zero framebuffer while iconified; X11 keeps the size,
    // so ask for the iconified state too (drawing to a hidden window is waste).
    const VkExtent2D extent = framebufferExtent();
    return extent.width == 0 || extent.height == 0 || glfwGetWindowAttrib(window_, GLFW_ICONIFIED);
}

bool Window::takeResized() {
    const bool resized = resized_;
    resized_ = false;
    return resized;
}

KeyCommands Window::takeKeyCommands() {
    const KeyCommands keys = keys_;
    keys_ = {};
    return keys;
}

glm::vec2 Window::cursorPixels() const {
    double x = 0, y = 0;
    glfwGetCursorPos(window_, &x, &y);
    // Window coordinates to framebuffer pixels (they differ on high-DPI screens).
    int ww = 0, wh = 0, fw = 0, fh = 0;
    glfwGetWindowSize(window_, &ww, &wh);
    glfwGetFramebufferSize(window_, &fw, &fh);
    return {ww > 0 ? float(x) * float(fw) / float(ww) : float(x), wh > 0 ? float(y) * float(fh) / float(wh) : float(y)};
}

bool Window::pickButtonDown() const {
    const bool ctrl = glfwGetKey(window_, GLFW_KEY_LEFT_CONTROL) == GLFW_PRESS ||
                      glfwGetKey(window_, GLFW_KEY_RIGHT_CONTROL) == GLFW_PRESS;
    return ctrl && glfwGetMouseButton(window_, GLFW_MOUSE_BUTTON_LEFT) == GLFW_PRESS;
}

CameraInput Window::takeCameraInput() {
    const CameraInput input = input_;
    input_ = {};
    return input;
}

void Window::setTitle(const std::string& title) { glfwSetWindowTitle(window_, title.c_str()); }

void Window::onFramebufferSize(GLFWwindow* window, int, int) { owner(window)->resized_ = true; }

void Window::onCursorPos(GLFWwindow* window, double x, double y) {
    Window& self = *owner(window);
    const glm::dvec2 cursor(x, y);
    // The first event has no previous position to move from.
    const glm::vec2 delta = self.cursorKnown_ ? glm::vec2(cursor - self.lastCursor_) : glm::vec2(0.0f);
    self.lastCursor_ = cursor;
    self.cursorKnown_ = true;
    if (self.uiMouse_) return;
    const bool left = glfwGetMouseButton(window, GLFW_MOUSE_BUTTON_LEFT) == GLFW_PRESS;
    const bool shift =
        glfwGetKey(window, GLFW_KEY_LEFT_SHIFT) == GLFW_PRESS || glfwGetKey(window, GLFW_KEY_RIGHT_SHIFT) == GLFW_PRESS;
    const bool ctrl = glfwGetKey(window, GLFW_KEY_LEFT_CONTROL) == GLFW_PRESS ||
                      glfwGetKey(window, GLFW_KEY_RIGHT_CONTROL) == GLFW_PRESS;
    if (left && !shift && !ctrl) self.input_.rotatePixels += delta;  // Ctrl + left is picking
    if ((left && shift) || glfwGetMouseButton(window, GLFW_MOUSE_BUTTON_RIGHT) == GLFW_PRESS ||
        glfwGetMouseButton(window, GLFW_MOUSE_BUTTON_MIDDLE) == GLFW_PRESS)
        self.input_.panPixels += delta;
}

void Window::onScroll(GLFWwindow* window, double, double dy) {
    if (owner(window)->uiMouse_) return;
    owner(window)->input_.zoomSteps += static_cast<float>(dy);
}

void Window::onKey(GLFWwindow* window, int key, int, int action, int) {
    if (action != GLFW_PRESS) return;
    Window& self = *owner(window);
    if (key == GLFW_KEY_ESCAPE) glfwSetWindowShouldClose(window, GLFW_TRUE);
    if (key == GLFW_KEY_F1 || key == GLFW_KEY_TAB) self.keys_.toggleOverlay = true;
    if (self.uiKeyboard_) return;  // typing into the overlay
    switch (key) {
        case GLFW_KEY_R: self.input_.reset = true; break;
        case GLFW_KEY_F: self.input_.frameScene = true; break;
        case GLFW_KEY_SPACE: self.keys_.togglePause = true; break;
        case GLFW_KEY_N: self.keys_.stepOnce = true; break;
        case GLFW_KEY_M: self.keys_.nextDisplayMode = true; break;
        case GLFW_KEY_C: self.keys_.toggleColliders = true; break;
        case GLFW_KEY_K: self.keys_.toggleContacts = true; break;
        default:
            if (key >= GLFW_KEY_1 && key <= GLFW_KEY_5) self.keys_.displayMode = key - GLFW_KEY_1;
    }
}

}  // namespace vksim
