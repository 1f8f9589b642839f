/** Placeholder: the packets of an entity are shown by the packets view, built in its own change. */
export function PacketView({ entityId }: { entityId: string }) {
  return <span data-entity-id={entityId} />;
}
