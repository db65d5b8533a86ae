#pragma once
// Contact particles of different objects that start closer than their
// contact distance t_a + t_b. A contact keeps two surfaces on the sides they
// start on (docs/physics.md §14, "What contacts do not do yet"), so objects
// placed inside one another stay tangled: the model summary warns of it.
#include <cstdint>

#include "contacts/contact_model.h"

namespace vksim {

struct StartingOverlaps {
    uint64_t pairs = 0;  // such pairs, of any two objects of one contact group
    // The pair deepest inside its contact distance (the smallest distance
    // over contact distance): its objects (SharedModel::objects indices),
    // distance and contact distance [m]. Meaningless while pairs is 0.
    uint32_t objectA = 0, objectB = 0;
    double distance = 0.0, contactDistance = 0.0;
};

// From the contact particles' rest positions (the model's initial state),
// with a hash grid of cells twice the largest thickness: O(n).
StartingOverlaps findStartingOverlaps(const ContactModel& contacts);

}  // namespace vksim
