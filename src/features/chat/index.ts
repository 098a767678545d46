/** Public surface of the chat feature. */
export { ChatPane, type ChatPaneProps } from './ChatPane';
export { MessageList, type MessageListProps } from './MessageList';
/** Fetches and evaluates the Markdown renderer's chunk ahead of the first reply. */
export const preloadMarkdown = () => import('./Markdown');
