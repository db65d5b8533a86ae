#pragma once
// Where the PBD workgroup path keeps each object's contact lists
// (docs/physics.md §14, "Contacts in the workgroup path";
// shaders/pbd/workgroup_contacts.glsl): one region per object of the
// workgroup plan that has contact particles, in one buffer, laid out once
// on the CPU from the contact model. The kernel fills the lists every
// substep; the header of each region (its contact particles and the list's
// capacity) is what is uploaded.
#include <cstdint>
#include <vector>

#include "contacts/contact_model.h"
#include "shaders/pbd/pbd_types.h"

namespace vksim {

// The constraints an object's list holds per contact particle: what the
// set holds per contact particle (its pairs' neighbour-list entries, and
// with triangles the four-particle constraints': ContactModel's capacity
// and triangleCapacity over its contact particles), so that an object's
// list holds its share of a full set. Those past it (a set crowded into one
// object of several) are left to the projection after the solve.
uint32_t workgroupContactsPerParticle(const ContactModel& contacts);

// Sets each object's contactListFirst (gpu::kNoContactList where it has no
// contact particle) and returns the buffer's words: each region's header,
// zero elsewhere. `workgroupWidth`: the kernel's invocations (the regions
// hold a count per colour and invocation).
std::vector<uint32_t> layOutWorkgroupContactLists(const ContactModel& contacts,
                                                  std::vector<gpu::WorkgroupObject>& objects, uint32_t workgroupWidth);

}  // namespace vksim
