# Reads a Grainlab ParaView series (DIR/vtk) with VTK's own XML reader and
# prints, as JSON, what the tests compare with the snapshots: per frame of
# each .pvd its time, cell counts, per body_id / wall_id the mean and count
# of its points and its arrays, per contact its arrays, per sphere point
# (spheres.pvd, when written) its position and arrays. Run with Debian's
# /usr/bin/python3 (python3-vtk9). Exit 1 on any reader error.
import json
import os
import sys
import xml.etree.ElementTree as ET

from vtkmodules.vtkCommonCore import vtkCommand
from vtkmodules.vtkIOXML import vtkXMLPolyDataReader

errors = []


def on_error(obj, event):
    errors.append(event)


def read(path):
    r = vtkXMLPolyDataReader()
    r.AddObserver(vtkCommand.ErrorEvent, on_error)
    r.SetFileName(path)
    r.Update()
    if errors or r.GetErrorCode():
        sys.exit("vtk reader failed on %s" % path)
    return r.GetOutput()


def groups(p, key, arrays):
    pd = p.GetPointData()
    ids = pd.GetArray(key)
    out = {}
    for i in range(p.GetNumberOfPoints()):
        k = str(int(ids.GetTuple1(i)))
        g = out.setdefault(k, {"n": 0, "sum": [0.0, 0.0, 0.0]})
        g["n"] += 1
        x = p.GetPoint(i)
        for a in range(3):
            g["sum"][a] += x[a]
        if g["n"] == 1:
            g["first"] = list(x)
            for name in arrays:
                g[name] = list(pd.GetArray(name).GetTuple(i))
    return out


d = sys.argv[1]
out = {}
for name in ["bodies", "contacts", "walls", "spheres"]:
    if name == "spheres" and not os.path.exists(os.path.join(d, name + ".pvd")):
        continue
    root = ET.parse(os.path.join(d, name + ".pvd")).getroot()
    frames = []
    for ds in root.iter("DataSet"):
        p = read(os.path.join(d, ds.get("file")))
        fr = {"time": float(ds.get("timestep")), "points": p.GetNumberOfPoints(),
              "verts": p.GetNumberOfVerts(), "lines": p.GetNumberOfLines(), "polys": p.GetNumberOfPolys()}
        if name == "bodies":
            fr["bodies"] = groups(p, "body_id", ["velocity", "angular_velocity", "material"])
        elif name == "spheres":
            pd = p.GetPointData()
            arrs = ["body_id", "radius", "velocity", "angular_velocity", "material", "contact_force"]
            fr["spheres"] = [dict([("point", list(p.GetPoint(i)))] +
                                  [(a, list(pd.GetArray(a).GetTuple(i))) for a in arrs])
                             for i in range(p.GetNumberOfPoints())]
            if p.GetNumberOfPoints() > 0:
                fr["radius_range"] = list(pd.GetArray("radius").GetRange())
        elif name == "walls":
            fr["walls"] = groups(p, "wall_id", ["enabled", "force"])
        else:
            n = p.GetNumberOfVerts()
            pd, cd = p.GetPointData(), p.GetCellData()
            fr["contacts"] = [{
                "point": list(p.GetPoint(i)),
                "force": list(pd.GetArray("force").GetTuple(i)),
                "normal": list(pd.GetArray("normal").GetTuple(i)),
                "type": pd.GetArray("type").GetTuple1(i),
                "stick": pd.GetArray("stick").GetTuple1(i),
                "fn_vert": cd.GetArray("fn").GetTuple1(i),
                "fn_line": cd.GetArray("fn").GetTuple1(n + i),
                "ends": [list(p.GetPoint(n + 2 * i)), list(p.GetPoint(n + 2 * i + 1))],
            } for i in range(n)] if n > 0 else []
        frames.append(fr)
    out[name] = frames
json.dump(out, sys.stdout)
