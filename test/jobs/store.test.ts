import { MemoryPlanningStore } from '../../src/jobs/memory-store.js';
import { describePlanningStoreContract } from './store-contract.js';

describePlanningStoreContract('MemoryPlanningStore', () => {
  const store = new MemoryPlanningStore();
  let ids = 0;
  return {
    store,
    addCompany: (timezone) => store.addCompany({ id: ++ids, timezone }),
    addWarehouse: (fields) => store.addWarehouse({ ...fields, id: ++ids }),
    addVehicle: (fields) => store.addVehicle({ ...fields, id: ++ids }),
    addOrder: (fields) => store.addOrder({ ...fields, id: ++ids }),
    addRoute: (companyId, vehicleId, date) => {
      store.addRoute({ jobId: 0, companyId, vehicleId, name: 'manual', date, plannedMileageKm: 0, plannedDurationMin: 0, totalWeightKg: 0, totalVolumeM3: 0, stops: [] });
    },
    orderStatus: (id) => store.getOrder(id)!.status,
    orderHistory: (id) => store.getOrderHistory(id).map(({ status, previous_status, at }) => ({ status, previous_status, at })),
    readRoute: (id) => store.getRoute(id),
    countRoutes: (companyId) => store.listRoutes(companyId).length,
    editOrder: (_companyId, id, address) => store.updateOrder(id, { address }),
  };
});
