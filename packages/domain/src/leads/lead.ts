export interface Lead {
  id: string;
  garageId: string;
  vehicleId: string;
  name: string;
  email: string | null;
  phone: string | null;
  message: string | null;
  consent: true;
  createdAt: Date;
}
