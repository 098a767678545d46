/** Public surface of *New agent*. */
export { NewAgentForm, type NewAgentFormProps } from './NewAgentForm';
