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
    if (glfwGetMouseButton(window, GLFW_MOUSE_BUTTON_LEFT) == GLFW_PRESS) self.input_.rotatePixels += delta;
    if (glfwGetMouseButton(window, GLFW_MOUSE_BUTTON_RIGHT) == GLFW_PRESS ||
        glfwGetMouseButton(window, GLFW_MOUSE_BUTTON_MIDDLE) == GLFW_PRESS)
        self.input_.panPixels += delta;
}

void Window::onScroll(GLFWwindow* window, double, double dy) {
    owner(window)->input_.zoomSteps += static_cast<float>(dy);
}

void Window::onKey(GLFWwindow* window, int key, int, int action, int) {
    if (action != GLFW_PRESS) return;
    if (key == GLFW_KEY_ESCAPE) glfwSetWindowShouldClose(window, GLFW_TRUE);
    if (key == GLFW_KEY_R) owner(window)->input_.reset = true;
}

}  // namespace vksim
