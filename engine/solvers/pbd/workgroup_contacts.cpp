#include "solvers/pbd/workgroup_contacts.h"

#include <algorithm>

namespace vksim {

uint32_t workgroupContactsPerParticle(const ContactModel& contacts) {
    return (contacts.capacity + contacts.triangleCapacity) / contacts.count();
}

// The region of pbd/workgroup_contacts.glsl: the header (first contact
// particle, count, capacity), each colour's start and the end, a count per
// colour and invocation, then the list.
std::vector<uint32_t> layOutWorkgroupContactLists(const ContactModel& contacts,
                                                  std::vector<gpu::WorkgroupObject>& objects, uint32_t workgroupWidth) {
    std::vector<uint32_t> words;
    const auto byParticle = [](const gpu::ContactParticle& c, uint32_t particle) { return c.particle < particle; };
    for (gpu::WorkgroupObject& object : objects) {
        // Contact particles are numbered in particle order: the object's are a run.
        const auto begin = std::lower_bound(contacts.particles.begin(), contacts.particles.end(),
                                            object.firstParticle, byParticle);
        const auto end = std::lower_bound(begin, contacts.particles.end(),
                                          object.firstParticle + object.particleCount, byParticle);
        const auto count = static_cast<uint32_t>(end - begin);
        if (count == 0) {
            object.contactListFirst = gpu::kNoContactList;
            continue;
        }
        object.contactListFirst = static_cast<uint32_t>(words.size());
        const uint32_t capacity = count * workgroupContactsPerParticle(contacts);
        words.push_back(static_cast<uint32_t>(begin - contacts.particles.begin()));
        words.push_back(count);
        words.push_back(capacity);
        words.resize(words.size() + (gpu::kContactColours + 1) + gpu::kContactColours * workgroupWidth + capacity, 0u);
    }
    return words;
}

}  // namespace vksim
