/**
 * The voice feature's user-facing texts and the E.164 rule (re-exported by voice.ts). Kept apart
 * from the schemas so a bundle that only needs the texts (e.g. apply-contact in the contacts
 * group) stays small. Browser-safe.
 */

export const voiceMessages = {
  // Twilio Voice integration (SPEC §5, §8)
  accountSidRequired: 'Account SID is required',
  accountSidInvalid: 'Account SID must start with AC followed by 32 letters or digits',
  authTokenRequired: 'Auth token is required',
  phoneNumberRequired: 'Phone number is required',
  phoneNumberInvalid: 'Please enter a valid phone number',
  setupSuccess: 'Twilio Voice integration configured successfully',
  testSuccess: 'Connection successful',
  twilioAuthFailed: 'Twilio rejected the account SID or auth token. Check them in Integrations.',
  twilioNumberNotFound: 'This phone number was not found in the Twilio account.',
  twilioUnavailable: 'Twilio could not be reached. Please try again later.',
  notConnected: 'Connect the Twilio Voice integration first',
  // Voice settings (SPEC §8 successes, §5)
  settingsUpdated: 'Voice settings updated successfully',
  settingsReset: 'Voice settings reset to defaults',
  phoneRequested: 'Phone number request submitted successfully',
  phoneRequestCancelled: 'Phone number request cancelled successfully',
  phoneRequestExists: 'A phone number request is already pending',
  phoneAlreadyAssigned: 'A phone number is already assigned to your account',
  phoneRequestNotPending: 'Only a pending phone number request can be cancelled',
  phoneRequestNotFound: 'No phone number request found',
  premiumVoice: 'Premium voices cannot be selected',
  voiceInvalid: 'Choose a voice from the list',
  languageInvalid: 'Language must be one of en-US, en-GB, es-ES, es-MX',
  additionalLanguageInvalid: 'Additional languages must be among en-US, en-GB, es-ES, es-MX',
  additionalLanguagesTooMany: 'Choose at most 3 additional languages',
  additionalLanguageRepeated: 'An additional language must differ from the main language and from the others',
  messageRequired: (label: string) => `${label} is required`,
  messageTooLong: (label: string) => `${label} must be 500 characters or less`,
  speechRateRange: 'Speech rate must be between 0.5 and 2',
  pitchRange: 'Pitch must be between 0.5 and 2',
  volumeRange: 'Volume must be between 0 and 2',
  numberInvalid: (label: string) => `${label} must be a number`,
  maxCallDurationRange: 'Max call duration must be a whole number of seconds between 30 and 3600',
  methodInvalid: 'Summary notification method must be email, whatsapp, webhook or disabled',
  webhookUrlRequired: 'Webhook URL is required for webhook notifications',
  webhookUrlInvalid: 'Webhook URL must be a valid http(s) URL',
  forwardNumberInvalid: 'Forwarding number must be in E.164 format, e.g. +14155550123',
  conversationModeInvalid: 'Conversation mode must be streaming or gather',
  notesTooLong: 'Notes must be 500 characters or less',
  // Call logs (SPEC §2, §8)
  callNotFound: 'Voice Conversation Not Found',
  noSummary: 'This call has no AI analysis yet',
  noExtractedContact: 'The AI analysis found no contact data in this call',
  contactApplied: 'Contact updated with the data from the call',
  noRecording: 'This call has no recording',
  pageInvalid: 'Page must be a positive whole number',
  limitInvalid: 'Limit must be between 1 and 100',
  // The summary e-mail's Resend (issue 34)
  summaryNotEmailed: "This call's summary was not sent by e-mail",
  summaryResendLimit: 'This summary has already been resent the maximum number of times',
  summaryResendUnavailable: 'The summary could not be queued for sending. Please try again in a moment.',
  summaryResendQueued: 'The summary will be sent again by e-mail',
  // Admin (SPEC §6: an admin assigns phone numbers)
  adminOnly: 'Only administrators can do this',
  assignedNumberInvalid: 'Phone number must be in E.164 format, e.g. +14155550123',
  requestNotPendingOrApproved: 'Only a pending or approved request can be changed',
  requestApproved: 'Phone number request approved',
  requestRejected: 'Phone number request rejected',
  numberAssigned: 'Phone number assigned and the user notified',
  reasonTooLong: 'Reason must be 500 characters or less',
} as const;

export const E164_RE = /^\+[1-9]\d{6,14}$/;
