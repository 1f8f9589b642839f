/** Placeholder: the Device Operations drawer (`?deviceOperationsId=`) is built in its own change. */
export default function DeviceOperationsDrawer() {
  return null;
}
