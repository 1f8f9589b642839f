import { useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import CssBaseline from '@mui/material/CssBaseline';
import { createTheme, ThemeProvider } from '@mui/material/styles';
import { DataGrid, type GridColDef } from '@mui/x-data-grid';

/**
 * The benchmark's yardstick for the portal's first screen: React, MUI and the MUI X Data Grid
 * and nothing else, showing rows fetched as JSON (`rows.json`, beside the page). The portal's
 * work units page is measured against it, both built by the same vite from the same lockfile.
 */
interface Row {
  id: number;
  title: string;
  severity: string;
  state: string;
  created: string;
}

const columns: GridColDef<Row>[] = [
  { field: 'id', headerName: 'ID', width: 80 },
  { field: 'title', headerName: 'Title', flex: 1 },
  { field: 'severity', headerName: 'Severity', width: 110 },
  { field: 'state', headerName: 'State', width: 150 },
  { field: 'created', headerName: 'Created', width: 180 },
];

function App() {
  const [rows, setRows] = useState<Row[] | null>(null);
  useEffect(() => {
    void fetch('rows.json')
      .then((response) => response.json() as Promise<Row[]>)
      .then(setRows);
  }, []);
  return (
    <DataGrid
      rows={rows ?? []}
      columns={columns}
      loading={rows === null}
      pageSizeOptions={[10, 25, 50, 100]}
      initialState={{ pagination: { paginationModel: { pageSize: 10 } } }}
    />
  );
}

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element.');
createRoot(root).render(
  <ThemeProvider theme={createTheme()}>
    <CssBaseline />
    <App />
  </ThemeProvider>,
);
