/** PLACEHOLDER (issue 33, helper "retention" writes it): deletes at Twilio the recordings whose retention ended. */
export const handler = async (): Promise<void> => {
  throw new Error('recording retention not built yet');
};
