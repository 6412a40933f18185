// The spec's booking messages that more than one place shows (server refusals, the portal's and
// the manage link's forms, the SSC API): written once here (issue 20 item 3).

/** A slot with no free compatible bay (spec §2, "No compatible bay…"). */
export const NO_AVAILABLE_BAY = 'No compatible bay is available at the selected time. Please choose a different time slot.';

/** No bay of the organization can take this vehicle at any time: a different problem from a full slot. */
export const NO_COMPATIBLE_BAY =
  'No bay at this organization can take this vehicle: check its height, length and special access needs, or contact the site.';
