// Where the user tools' confirm dialog renders: inside the user drawer while it is open
// (a dialog nested in the drawer's panel), else on the page. Its code loads on first use.
import { useStore } from "@nanostores/react";
import { lazyComponent } from "@/lib/lazy-component";
import { $userDetail, $userTool } from "@/features/console-users/stores";

const UserToolDialog = lazyComponent(() => import("@/features/console-users/components/user-tool-dialog"), "UserToolDialog");

export function UserTools({ inDetail }: { inDetail: boolean }) {
  const tool = useStore($userTool);
  const detailOpen = useStore($userDetail).userId !== null;
  if (!tool || detailOpen !== inDetail) return null;
  return <UserToolDialog tool={tool} />;
}
