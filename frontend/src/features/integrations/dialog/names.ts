/** Which integration modal: its texts live under `integrations.<name>`, its ids and test ids start with `<name>-`. */
export type IntegrationDialogName = 'chatgpt' | 'whatsapp' | 'twilio';
