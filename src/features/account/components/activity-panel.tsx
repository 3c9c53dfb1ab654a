// Settings → Activity (issue #18): being built in this session; replaced by its feature's panel.
export function ActivityPanel() {
  return <h2 className="text-lg font-semibold text-slate-900">Activity</h2>;
}
