/**
 * A thread's transcript as Markdown: one section per turn with the user's message, the reply,
 * the decision and a line about the trace (intent, rules that did not allow, tools invoked).
 * Pure. User and agent texts are quoted so their own Markdown cannot break the structure.
 */
import type { SharedThread } from './document';

function quote(text: string): string {
  if (!text.trim()) return '> _(empty)_';
  return text
    .split('\n')
    .map((l) => `> ${l}`.trimEnd())
    .join('\n');
}

function code(s: string): string {
  const clean = s.replace(/`/g, "'");
  return `\`${clean}\``;
}

export function transcriptMarkdown(
  thread: SharedThread,
  opts: { exportedAt?: string; masked?: readonly string[] } = {},
): string {
  const lines: string[] = [];
  lines.push(`# ${thread.title.trim() || `Thread ${thread.id}`}`, '');
  lines.push(`- Thread: ${code(thread.id)}`);
  if (thread.agent_id)
    lines.push(
      `- Agent: ${code(thread.agent_id)}${thread.version_tag ? ` (${thread.version_tag})` : thread.version_id ? ` (${thread.version_id})` : ''}`,
    );
  lines.push(`- Turns: ${thread.turns.length}`);
  if (opts.exportedAt) lines.push(`- Exported: ${opts.exportedAt}`);
  if (opts.masked?.length) lines.push(`- Masked values: ${opts.masked.join(', ')}`);
  lines.push('');
  if (thread.welcome_message) lines.push('**Agent (welcome)**', '', quote(thread.welcome_message), '');
  thread.turns.forEach((t, i) => {
    lines.push(`## Turn ${i + 1}`, '');
    if (t.text_unavailable) {
      lines.push('_The server does not record message texts._', '');
    } else {
      lines.push('**User**', '', quote(t.user_text), '', '**Agent**', '', quote(t.reply_text), '');
    }
    const facts: string[] = [];
    const decision = t.decision || t.trace?.decision;
    if (decision) facts.push(`decision ${code(decision)}`);
    if (t.trace?.intent) facts.push(`intent ${code(t.trace.intent)}`);
    if (facts.length) lines.push(`Trace: ${facts.join(' · ')}`, '');
    const notAllowed = (t.trace?.rules_evaluated ?? []).filter(
      (r) => r.result && r.result !== 'allowed' && r.result !== 'not_applicable',
    );
    for (const r of notAllowed)
      lines.push(`- Rule ${code(r.rule_id)} → ${r.result}${r.reason ? `: ${r.reason}` : ''}`);
    const tools = (t.trace?.tools_invoked ?? []).map(
      (inv) => `${code(inv.tool)} (${inv.result || 'no result'})`,
    );
    if (tools.length) lines.push(`- Tools invoked: ${tools.join(', ')}`);
    if (notAllowed.length || tools.length) lines.push('');
    if (t.suggestions.length && i === thread.turns.length - 1)
      lines.push(`Suggestions: ${t.suggestions.map((s) => `“${s}”`).join(', ')}`, '');
  });
  return (
    lines
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trimEnd() + '\n'
  );
}
