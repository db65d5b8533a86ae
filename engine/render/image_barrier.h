#pragma once
// One image layout transition with its synchronization2 scopes, written out
// at the call site (the renderer, the overlay, the capture) so that every
// hand-over of the colour image is visible where it happens.
#include <volk.h>

namespace vksim {

void imageBarrier(VkCommandBuffer cmd, VkImage image, VkImageAspectFlags aspect, VkImageLayout oldLayout,
                  VkImageLayout newLayout, VkPipelineStageFlags2 srcStage, VkAccessFlags2 srcAccess,
                  VkPipelineStageFlags2 dstStage, VkAccessFlags2 dstAccess);

// The finished colour image (COLOR_ATTACHMENT_OPTIMAL, or TRANSFER_SRC after
// a capture) goes to the presentation engine. No destination scope: the
// render-finished semaphore, signalled after all commands, orders presentation.
void colorToPresent(VkCommandBuffer cmd, VkImage image, VkImageLayout from);

}  // namespace vksim
