// One table for every console and dashboard list, on TanStack Table (v8). Columns are
// defined at module scope by each feature; rows are keyed by their record id; paging and
// sorting happen on the server (manualPagination / manualSorting), so the table only
// renders the page it is given and reports a sort change. A column marked `secondary`
// hides below the `md` breakpoint.
import {
  flexRender,
  getCoreRowModel,
  useReactTable,
  type ColumnDef,
  type Header,
  type OnChangeFn,
  type RowData,
  type SortingState,
} from "@tanstack/react-table";
import { ArrowDown, ArrowUp, ArrowUpDown } from "lucide-react";
import { Pager } from "@/components/ui/pager";
import { cn } from "@/lib/cn";

declare module "@tanstack/react-table" {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- the augmented interface must keep TanStack's parameters
  interface ColumnMeta<TData extends RowData, TValue> {
    /** Classes on the column's header and cells (alignment, width). */
    className?: string;
    /** Classes on the column's cells only. */
    cellClassName?: string;
    /** Hidden on small screens: a detail the row can do without. */
    secondary?: boolean;
  }
}

export type { ColumnDef, SortingState } from "@tanstack/react-table";

/** A row the server gave: keyed by its record id. */
interface Identified {
  id: string;
}

export interface Paging {
  page: number;
  totalPages: number;
  onPage: (page: number) => void;
  /** Show the pager even on a lone page (a list whose total the server does not count). */
  always?: boolean;
}

interface DataTableProps<Row extends Identified> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a row's columns hold values of different types (TanStack's own idiom)
  columns: ColumnDef<Row, any>[];
  data: Row[];
  /** The scrollable region's name; without it the table is not wrapped in a focusable region. */
  label?: string | undefined;
  caption?: string | undefined;
  /** A newer page is loading: the rows dim and the table is marked busy. */
  busy?: boolean | undefined;
  paging?: Paging | undefined;
  /** The server's sort, when the route allows sorting; sortable columns set `enableSorting`. */
  sorting?: SortingState | undefined;
  onSortingChange?: OnChangeFn<SortingState> | undefined;
  /** data-testid of each row, for the tests that count them. */
  rowTestId?: string | undefined;
  rowClassName?: (row: Row) => string | false | undefined;
  /** Classes on the table (e.g. its minimum width). */
  className?: string | undefined;
  /** Classes on the wrapper (border, rounding). */
  frameClassName?: string | undefined;
}

const getRowId = (row: Identified) => row.id;
const CELL = "px-4 py-3";

export function DataTable<Row extends Identified>({
  columns,
  data,
  label,
  caption,
  busy = false,
  paging,
  sorting,
  onSortingChange,
  rowTestId,
  rowClassName,
  className,
  frameClassName,
}: DataTableProps<Row>) {
  const sortable = onSortingChange !== undefined;
  // eslint-disable-next-line react-hooks/incompatible-library -- the table object never leaves this component, so nothing memoized holds a stale one
  const table = useReactTable({
    data,
    columns,
    getRowId,
    getCoreRowModel: getCoreRowModel(),
    manualPagination: true,
    manualSorting: true,
    enableSorting: sortable,
    enableSortingRemoval: false,
    ...(sorting ? { state: { sorting } } : {}),
    ...(onSortingChange ? { onSortingChange } : {}),
  });

  const tableElement = (
    <table className={cn("w-full text-left text-sm", busy && "opacity-60", className)} aria-busy={busy}>
      {caption ? <caption className="sr-only">{caption}</caption> : null}
      <thead className="border-b border-slate-200 bg-slate-50 text-xs tracking-wide text-slate-600 uppercase">
        {table.getHeaderGroups().map((group) => (
          <tr key={group.id}>
            {group.headers.map((header) => (
              <HeaderCell key={header.id} header={header} />
            ))}
          </tr>
        ))}
      </thead>
      <tbody className="divide-y divide-slate-100">
        {table.getRowModel().rows.map((row) => (
          <tr key={row.id} data-testid={rowTestId} className={cn(rowClassName?.(row.original))}>
            {row.getVisibleCells().map((cell) => {
              const meta = cell.column.columnDef.meta;
              return (
                <td key={cell.id} className={cn(CELL, meta?.className, meta?.cellClassName, meta?.secondary && "hidden md:table-cell")}>
                  {flexRender(cell.column.columnDef.cell, cell.getContext())}
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );

  const frame = cn("overflow-x-auto", frameClassName ?? "rounded-xl border border-slate-200 bg-white shadow-sm");
  return (
    <>
      {label ? (
        <div role="region" aria-label={label} tabIndex={0} className={cn(frame, "focus:ring-2 focus:ring-primary/30 focus:outline-none")}>
          {tableElement}
        </div>
      ) : (
        <div className={frame}>{tableElement}</div>
      )}
      {paging && (paging.always || paging.page > 1 || paging.totalPages > 1) ? (
        <Pager page={paging.page} hasNext={paging.page < paging.totalPages} onPage={paging.onPage} disabled={busy} />
      ) : null}
    </>
  );
}

const SORT_ICONS = { asc: ArrowUp, desc: ArrowDown } as const;

function HeaderCell<Row>({ header }: { header: Header<Row, unknown> }) {
  const meta = header.column.columnDef.meta;
  const sorted = header.column.getIsSorted();
  const content = header.isPlaceholder ? null : flexRender(header.column.columnDef.header, header.getContext());
  const Icon = sorted ? SORT_ICONS[sorted] : ArrowUpDown;
  return (
    <th
      scope="col"
      colSpan={header.colSpan}
      aria-sort={sorted === "asc" ? "ascending" : sorted === "desc" ? "descending" : undefined}
      className={cn(CELL, "font-semibold", meta?.className, meta?.secondary && "hidden md:table-cell")}
    >
      {header.column.getCanSort() ? (
        <button
          type="button"
          onClick={header.column.getToggleSortingHandler()}
          className="inline-flex items-center gap-1 uppercase hover:text-slate-900 focus:underline focus:outline-none"
        >
          {content}
          <Icon className="size-3.5" aria-hidden="true" />
        </button>
      ) : (
        content
      )}
    </th>
  );
}
