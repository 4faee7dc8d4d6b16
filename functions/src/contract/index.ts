/** The API contract shared by functions/, frontend/ and the tests. Browser-safe: no Node imports. */
export * from './auth.js';
export * from './billing.js';
export * from './contacts.js';
export * from './contacts-bulk.js';
export * from './contact-jobs.js';
export * from './contact-timeline.js';
export * from './integrations.js';
export * from './agents.js';
export * from './whatsapp.js';
export * from './whatsapp-templates.js';
export * from './voice.js';
export * from './apply-contact.js';
export * from './dashboard.js';
export * from './api-keys.js';
export * from './inbox.js';
export * from './saved-replies.js';
export * from './notifications.js';
