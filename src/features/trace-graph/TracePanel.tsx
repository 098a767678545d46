import { EmptyState } from '../../components/ui/EmptyState';

export default function TracePanel() {
  return <EmptyState title="Trace">The trace graph is coming.</EmptyState>;
}
