/**
 * Knowledge tab (issue 18): the agent's knowledge settings (language, minimum relevance), the
 * questions it could not answer (answer one to teach it) and the entries the owner wrote.
 */
import Stack from '@mui/material/Stack';
import { useTranslation } from 'react-i18next';
import type { Agent } from '@agentdesk/functions/contract';
import { TabHeader } from './TabLayout';
import { KnowledgeEntries } from './knowledge/KnowledgeEntries';
import { KnowledgeSettings } from './knowledge/KnowledgeSettings';
import { UnansweredQuestions } from './knowledge/UnansweredQuestions';

export default function KnowledgeTab({ agent }: { agent: Agent }) {
  const { t } = useTranslation();
  return (
    <Stack spacing={3}>
      <TabHeader title={t('agentTabs.knowledge.title')} intro={t('agentTabs.knowledge.intro')} />
      <UnansweredQuestions agentId={agent._id} />
      <KnowledgeEntries agent={agent} />
      <KnowledgeSettings agent={agent} />
    </Stack>
  );
}
