/** Public surface of the chat feature. */
export { ChatPane, type ChatPaneProps } from './ChatPane';
export { MessageList, type MessageListProps } from './MessageList';
export { preloadMarkdown } from './SafeMarkdown';
