import { Providers } from './providers';
import { AuthProvider } from './auth';
import { AppRoutes } from './AppRoutes';

export function App() {
  return (
    <Providers>
      <AuthProvider>
        <AppRoutes />
      </AuthProvider>
    </Providers>
  );
}
